// verdict: SYNC_ERROR
// The down-sweep levels run without barriers: a level reads s[k] that the previous level (another
// thread, often another warp) may not have updated yet - a shared-memory race.
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
    for (int stride = SECTION / 4; stride > 0; stride /= 2) {
        int k = (t + 1) * 2 * stride - 1;
        if (k + stride < SECTION) s[k + stride] += s[k];
    }
    __syncthreads();
    if (base + t < n) out[base + t] = s[t];
    if (base + t + BLOCK < n) out[base + t + BLOCK] = s[t + BLOCK];
}
