// verdict: ACCEPTED
// freopen64 (an alias of the refused freopen) of stdout onto a file in the project: the project is not in the box.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) freopen64("{{REPO}}/wd_hostile_marker", "w", stdout);
    if (i < n) c[i] = a[i] + b[i];
}
