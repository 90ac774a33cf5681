// verdict: SYNC_ERROR
// gpu-verdict: ACCEPTED (on sm_90 a shuffle from an exited lane reads 0 and the exited threads are not waited for at the barrier: the sum comes out right)
// Threads past n return before the shuffles: in the last block, the lanes that remain call
// __shfl_down_sync with a mask naming lanes that have exited, and they never reach the barrier.
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
    if (i >= n) return;
    int lane = threadIdx.x % WARP, warp = threadIdx.x / WARP;
    float v = warp_sum(x[i]);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = (lane < (int)(blockDim.x / WARP)) ? warp_sums[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) atomicAdd(total, v);
    }
}
