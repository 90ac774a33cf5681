// verdict: COMPILE_ERROR
// says: 'fgetc' is not available
// The security tester's playground kernel: /proc/self/maps read with fopen64 and fgetc, through a
// pointer of no stream type. Both names are refused on their line.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int ch = 0;
    if (i == 0) {
        auto m = fopen64("/proc/self/maps", "r");
        if (m) ch = fgetc(m);
    }
    if (i < n) c[i] = a[i] + b[i] + (ch > 0 ? 0.0f : 0.0f);
}
