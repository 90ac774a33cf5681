// verdict: COMPILE_ERROR
// says: 'system' is not available
#include <cstdlib>
__global__ void add(const float* a, const float* b, float* c, int n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) system("touch /tmp/wd_hostile_marker {{CANARY_DIR}}/wd_hostile_marker");
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
