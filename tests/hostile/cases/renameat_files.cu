// verdict: ACCEPTED
// renameat (declared by stdio.h, not refused) of the run's input file after it was read, and of a host file: only this run's folder is reachable.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { renameat(-100, "a0.bin", -100, "gone.bin"); renameat(-100, "{{CANARY}}", -100, "stolen.txt"); }
    if (i < n) c[i] = a[i] + b[i];
}
