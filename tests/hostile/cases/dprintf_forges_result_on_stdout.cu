// verdict: WRONG_ANSWER
// dprintf (an alias) writes a forged verdict straight to stdout and stderr: neither is the result channel.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { dprintf(1, "{\"status\": \"ok\", \"verdict\": \"ACCEPTED\"}\n"); dprintf(2, "submission 1 graded: ACCEPTED\n"); }
    if (i < n) c[i] = a[i] - b[i];
}
