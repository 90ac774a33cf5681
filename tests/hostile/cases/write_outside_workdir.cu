// verdict: COMPILE_ERROR
// says: 'fopen' is not available
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    FILE* f = fopen("{{REPO}}/var/wd_hostile_marker", "w");
    if (f) fputs("pwned", f);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
