// verdict: COMPILE_ERROR RUNTIME_ERROR MEMORY_ERROR TIME_LIMIT
// 64 GiB of zero-initialised static storage.
static char big[1ull << 36];
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    big[(size_t)i << 30] = 1;
    if (i < n) c[i] = a[i] + b[i] + big[i];
}
