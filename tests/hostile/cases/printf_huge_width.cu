// verdict: ACCEPTED TIME_LIMIT
// printf with a 10^9 field width: the runtime formats into a 1 KiB buffer and caps the log.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) printf("%1000000000d", 1);
    if (i < n) c[i] = a[i] + b[i];
}
