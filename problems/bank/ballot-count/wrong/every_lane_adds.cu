// verdict: WRONG_ANSWER
// Every lane adds the warp's count: each element above the threshold is counted 32 times.
#define FULL_MASK 0xffffffffu
__global__ void count_above(const float* x, int* count, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ballot = __ballot_sync(FULL_MASK, i < n && x[i] > threshold);
    atomicAdd(count, __popc(ballot));
}
