// verdict: MEMORY_ERROR
// The second element (t + 256) is loaded and stored without its own guard: in the ragged last
// section those threads read past the end of x and write past the end of out.
#define BLOCK 256
#define SECTION (2 * BLOCK)
extern "C" __global__ void brent_kung_scan(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float s[SECTION];
    int t = threadIdx.x;
    int base = blockIdx.x * SECTION;
    s[t] = (base + t < n) ? x[base + t] : 0.0f;
    s[t + BLOCK] = x[base + t + BLOCK];
    for (int stride = 1; stride <= BLOCK; stride *= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * stride - 1;
        if (k < SECTION) s[k] += s[k - stride];
    }
    for (int stride = SECTION / 4; stride > 0; stride /= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * stride - 1;
        if (k + stride < SECTION) s[k + stride] += s[k];
    }
    __syncthreads();
    if (base + t < n) out[base + t] = s[t];
    out[base + t + BLOCK] = s[t + BLOCK];
}
