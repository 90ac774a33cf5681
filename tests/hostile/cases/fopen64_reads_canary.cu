// verdict: COMPILE_ERROR
// says: 'fopen64' is not available
// fopen64 of a secret file outside the box: refused by name (it passed the static checks as an alias of
// fopen until the security tester's report). resolved_open64_reads_canary.cu shows the box contains it.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    FILE* f = fopen64("{{CANARY}}", "r");
    if (i < n) c[i] = a[i] + b[i] + (f ? 1000.0f : 0.0f);
}
