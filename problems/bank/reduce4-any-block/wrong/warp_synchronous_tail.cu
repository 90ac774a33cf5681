// verdict: SYNC_ERROR
// The pre-Volta "warp-synchronous" tail: no __syncwarp() and no volatile, trusting the 32
// lanes to run in lock-step. They do not (independent thread scheduling), and the compiler
// may keep tsum[id] in a register: lane i reads tsum[i + 16] while lane i + 16 is still
// updating it. A shared-memory race; on an H200 every block gets a wrong sum.
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

    for (int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (id < s) {
            tsum[id] += tsum[id + s];
        }
        __syncthreads();
    }
    if (id < 32) {
        tsum[id] += tsum[id + 32];
        tsum[id] += tsum[id + 16];
        tsum[id] += tsum[id + 8];
        tsum[id] += tsum[id + 4];
        tsum[id] += tsum[id + 2];
        tsum[id] += tsum[id + 1];
        if (id == 0) {
            atomicAdd(y, tsum[0]);
        }
    }
}
