#define BLOCK 256
#define SECTION (2 * BLOCK)

// Brent-Kung: a reduction tree (up-sweep) then a distribution tree (down-sweep), in place.
extern "C" __global__ void brent_kung_scan(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float s[SECTION];
    int t = threadIdx.x;
    int base = blockIdx.x * SECTION;

    // Two elements per thread, coalesced: t and t + 256; 0 past n.
    s[t] = (base + t < n) ? x[base + t] : 0.0f;
    s[t + BLOCK] = (base + t + BLOCK < n) ? x[base + t + BLOCK] : 0.0f;

    // Up-sweep: after the level with `stride`, s[m * 2 * stride - 1] holds the sum of its
    // 2 * stride elements.
    for (int stride = 1; stride <= BLOCK; stride *= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * stride - 1;
        if (k < SECTION) s[k] += s[k - stride];
    }
    // Down-sweep: add each partial sum to the position `stride` to its right.
    for (int stride = SECTION / 4; stride > 0; stride /= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * stride - 1;
        if (k + stride < SECTION) s[k + stride] += s[k];
    }
    __syncthreads();

    if (base + t < n) out[base + t] = s[t];
    if (base + t + BLOCK < n) out[base + t + BLOCK] = s[t + BLOCK];
}
