// verdict: RUNTIME_ERROR MEMORY_ERROR
// The allocation fails under the address-space limit (touching 64 GiB would exhaust the worker);
// the write through its null result faults.
#include <cstdlib>
__global__ void add(const float* a, const float* b, float* c, int n) {
    volatile char* p = (volatile char*)malloc(64ull << 30);
    for (size_t k = 0; k < (64ull << 30); k += 4096) p[k] = 1;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
