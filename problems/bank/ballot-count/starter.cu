#define FULL_MASK 0xffffffffu

__global__ void count_above(const float* x, int* count, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Let the whole warp vote with __ballot_sync (lanes past n vote false), then let one lane add
    // the number of set bits (__popc) to *count.
}
