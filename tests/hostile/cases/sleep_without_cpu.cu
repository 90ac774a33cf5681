// verdict: TIME_LIMIT
// A kernel that blocks without using CPU: it opens a pseudo-terminal master (fopen64 is an alias
// the static checks do not know) and waits for input that never comes. The emulator's own limit
// counts CPU time, so only the wall clock can end it, at the limit plus a small grace.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        FILE* f = fopen64("/dev/ptmx", "r");
        c[0] = f ? (float)fgetc(f) : -1.0f;
    }
    if (i < n && i > 0) c[i] = a[i] + b[i];
}
