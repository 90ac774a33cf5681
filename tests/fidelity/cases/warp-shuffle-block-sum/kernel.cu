#define FULL_MASK 0xffffffff
#define WARPS (256 / 32)

__inline__ __device__ float warp_sum(float v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, off);
    return v;
}

__global__ void k(const float* x, float* y, int n)
{
    __shared__ float sums[WARPS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    float v = warp_sum(i < n ? x[i] : 0.0f);
    if (lane == 0) sums[w] = v;
    __syncthreads();
    if (w == 0) {
        v = warp_sum(lane < WARPS ? sums[lane] : 0.0f);
        if (lane == 0) y[blockIdx.x] = v;
    }
}
