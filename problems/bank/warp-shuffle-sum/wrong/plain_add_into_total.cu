// verdict: SYNC_ERROR
// gpu-verdict: WRONG_ANSWER (updates of total lost between blocks; racecheck sees shared memory only)
// `*total += v` instead of atomicAdd: the blocks' read-modify-writes of total race, and on a GPU
// updates are lost (the more blocks, the more).
#define WARP 32
#define FULL_MASK 0xffffffffu
__device__ float warp_sum(float v)
{
    for (int offset = WARP / 2; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}
extern "C" __global__ void sum_shfl(const float* x, float* total, int n)
{
    __shared__ float warp_sums[WARP];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    float v = warp_sum(i < n ? x[i] : 0.0f);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < (int)(blockDim.x / WARP)) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) *total += v;
    }
}
