#define FULL_MASK 0xffffffffu

// Every lane of every warp votes (lanes past n vote 0); lane 0 adds the warp's count.
// 32 times fewer atomics than one per element, and all of them on one address.
__global__ void count_above(const float* x, int* count, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool above = i < n && x[i] > threshold;
    unsigned ballot = __ballot_sync(FULL_MASK, above);
    if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(ballot));
}
