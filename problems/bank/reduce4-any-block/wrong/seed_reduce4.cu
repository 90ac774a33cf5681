// verdict: MEMORY_ERROR
// The seed notes' reduce4 as written (plus one atomicAdd per block instead of y[blockIdx.x]).
// Right only for 256 and 512 threads: with 128 threads `tsum[id] += tsum[id + 128]` reads
// tsum[128..255], past the end of the 128-float dynamic shared array (MEMORY_ERROR, the most
// severe verdict of its test cases); with 1024 threads half of the partial sums are never added.
__global__ void reduce4(float* y, const float* x, int n)
{
    extern __shared__ float tsum[];
    int id = threadIdx.x;
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    tsum[id] = 0.0f;
    for (int k = tid; k < n; k += stride) tsum[id] += x[k];
    __syncthreads();
    if (id < 256 && id + 256 < blockDim.x) tsum[id] += tsum[id + 256];
    __syncthreads();
    if (id < 128) tsum[id] += tsum[id + 128];
    __syncthreads();
    if (id < 64) tsum[id] += tsum[id + 64];
    __syncthreads();
    // warp 0 only from here
    if (id < 32) tsum[id] += tsum[id + 32];
    __syncwarp();
    if (id < 16) tsum[id] += tsum[id + 16];
    __syncwarp();
    if (id < 8) tsum[id] += tsum[id + 8];
    __syncwarp();
    if (id < 4) tsum[id] += tsum[id + 4];
    __syncwarp();
    if (id < 2) tsum[id] += tsum[id + 2];
    __syncwarp();
    if (id == 0) atomicAdd(y, tsum[0] + tsum[1]);
}
