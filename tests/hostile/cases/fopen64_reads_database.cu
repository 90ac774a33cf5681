// verdict: ACCEPTED
// fopen64 of the project's database file: the project is not in the box.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    FILE* f = fopen64("{{DB}}", "rb");
    if (i < n) c[i] = a[i] + b[i] + (f ? 1000.0f : 0.0f);
}
