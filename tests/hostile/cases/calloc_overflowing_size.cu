// verdict: MEMORY_ERROR RUNTIME_ERROR
// calloc of an element count that overflows: NULL, then a write through it.
#include <cstdlib>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile float* p = (volatile float*)calloc((size_t)1 << 62, 16);
    if (i == 0) p[3] = 1.0f;
    if (i < n) c[i] = a[i] + b[i];
}
