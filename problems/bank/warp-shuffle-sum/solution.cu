#define WARP 32
#define FULL_MASK 0xffffffffu

// Sum of the 32 lanes' values, left in lane 0: 5 shuffle steps (16, 8, 4, 2, 1).
__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

extern "C" __global__ void sum_shfl(const float* x, float* total, int n)
{
    __shared__ float warp_sums[WARP];  // one per warp of the block (at most 1024 / 32)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % WARP;
    int warp = threadIdx.x / WARP;

    float v = (i < n) ? x[i] : 0.0f;  // threads past n add 0 but still shuffle
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();  // every warp's sum is written before warp 0 reads them

    if (warp == 0) {
        int warps = (blockDim.x + WARP - 1) / WARP;
        v = (lane < warps) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(total, v);
    }
}
