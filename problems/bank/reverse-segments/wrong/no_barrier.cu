// verdict: SYNC_ERROR
// rule: 1b (docs/synchronization.md, the barrier rule's table)
// No barrier: thread t reads s[len - 1 - t] before thread len - 1 - t may have written it.
#define BLOCK 256
__global__ void reverse_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x, base = blockIdx.x * BLOCK, len = min(BLOCK, n - base);
    if (t < len) s[t] = x[base + t];
    if (t < len) y[base + t] = s[len - 1 - t];
}
