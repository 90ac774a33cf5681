// verdict: WRONG_ANSWER
// Only the up-sweep: that is a reduction. Positions 2^k - 1 hold their prefix sums, but every other
// position holds the sum of a sub-tree only; the down-sweep is what completes the scan.
#define BLOCK 256
#define SECTION (2 * BLOCK)
extern "C" __global__ void brent_kung_scan(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float s[SECTION];
    int t = threadIdx.x;
    int base = blockIdx.x * SECTION;
    s[t] = (base + t < n) ? x[base + t] : 0.0f;
    s[t + BLOCK] = (base + t + BLOCK < n) ? x[base + t + BLOCK] : 0.0f;
    for (int stride = 1; stride <= BLOCK; stride *= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * stride - 1;
        if (k < SECTION) s[k] += s[k - stride];
    }
    __syncthreads();
    if (base + t < n) out[base + t] = s[t];
    if (base + t + BLOCK < n) out[base + t + BLOCK] = s[t + BLOCK];
}
