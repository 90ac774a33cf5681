#define WARP 32
#define FULL_MASK 0xffffffffu

extern "C" __global__ void sum_shfl(const float* x, float* total, int n)
{
    __shared__ float warp_sums[WARP];
    // 1. Each warp sums its 32 values with __shfl_down_sync (threads past n contribute 0).
    // 2. Lane 0 of each warp stores the warp's sum in warp_sums; wait for all warps.
    // 3. Warp 0 sums warp_sums the same way; its lane 0 adds the block's sum to *total.
}
