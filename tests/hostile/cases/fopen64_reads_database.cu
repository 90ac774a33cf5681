// verdict: COMPILE_ERROR
// says: 'FILE' is not available
// fopen64 of the project's database file: refused by name, its stream type too (the project is not in
// the box either).
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    FILE* f = fopen64("{{DB}}", "rb");
    if (i < n) c[i] = a[i] + b[i] + (f ? 1000.0f : 0.0f);
}
