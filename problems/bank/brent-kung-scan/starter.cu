#define BLOCK 256
#define SECTION (2 * BLOCK)

extern "C" __global__ void brent_kung_scan(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float s[SECTION];
    int t = threadIdx.x;
    int base = blockIdx.x * SECTION;
    // 1. Load x[base + t] and x[base + t + 256] (0 past n).
    // 2. Up-sweep: stride = 1, 2, ..., 256: s[(t+1)*2*stride - 1] += s[(t+1)*2*stride - 1 - stride].
    // 3. Down-sweep: stride = 128, ..., 1: s[(t+1)*2*stride - 1 + stride] += s[(t+1)*2*stride - 1].
    // 4. Store both elements.
}
