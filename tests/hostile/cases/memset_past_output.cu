// verdict: MEMORY_ERROR
// memset over 256 MiB from the output buffer: the guard page stops it.
#include <cstring>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) memset(c, 0x7f, (size_t)256 << 20);
    if (i < n) c[i] = a[i] + b[i];
}
