// verdict: MEMORY_ERROR
// The vote reads x[i] for every lane, including lanes past n: out of bounds in the last block.
#define FULL_MASK 0xffffffffu
__global__ void count_above(const float* x, int* count, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ballot = __ballot_sync(FULL_MASK, x[i] > threshold);
    if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(ballot));
}
