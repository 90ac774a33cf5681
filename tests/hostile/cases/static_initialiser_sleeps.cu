// verdict: TIME_LIMIT
// A static initialiser that blocks without using CPU, before the runtime has read its job: the wall clock ends it.
#include <cstdio>
static int block_forever() { FILE* t = fopen64("/dev/ptmx", "r"); return t ? fgetc(t) : 0; }
static int early = block_forever();
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + early;
}
