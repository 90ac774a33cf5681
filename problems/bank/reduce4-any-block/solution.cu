// reduce4 for any power-of-two blockDim.x from 32 to 1024.
__global__ void reduce4(float* y, const float* x, int n)
{
    extern __shared__ float tsum[];
    int id = threadIdx.x;
    int stride = gridDim.x * blockDim.x;

    float sum = 0.0f;
    for (int k = blockIdx.x * blockDim.x + id; k < n; k += stride) {
        sum += x[k];
    }
    tsum[id] = sum;
    __syncthreads();

    // Halve while the two halves span more than one warp. The loop bound depends only on
    // blockDim.x, so every thread takes the same number of trips and reaches each barrier.
    for (int s = blockDim.x / 2; s >= 32; s >>= 1) {
        if (id < s) {
            tsum[id] += tsum[id + s];
        }
        __syncthreads();
    }

    // The last 32 partial sums live in warp 0. __syncwarp() orders each step's shared
    // writes before the next step's reads: lanes are not in lock-step on Volta and later.
    if (id < 32) {
        for (int s = 16; s > 0; s >>= 1) {
            if (id < s) {
                tsum[id] += tsum[id + s];
            }
            __syncwarp();
        }
        if (id == 0) {
            atomicAdd(y, tsum[0]);
        }
    }
}
