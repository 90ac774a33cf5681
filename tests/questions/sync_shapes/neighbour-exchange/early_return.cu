// verdict: ACCEPTED
// rule: 2 (docs/synchronization.md): the tail of the last block returns before the barrier
#define BLOCK 256

extern "C" __global__ void neighbour_sum(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float s[BLOCK];
    const int t = threadIdx.x;
    const int start = blockIdx.x * BLOCK;
    const int i = start + t;
    if (i >= n) return;                      // no element: leave before the barrier
    const int m = min(BLOCK, n - start);     // elements this block owns
    s[t] = x[i];
    __syncthreads();                         // waits for the threads that did not return
    out[i] = s[t] + s[(t + 1) % m];
}
