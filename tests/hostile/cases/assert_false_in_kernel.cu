// verdict: RUNTIME_ERROR
// assert(false) in a kernel: a device-side assert, the student's runtime error.
#include <cassert>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < 0);
    if (i < n) c[i] = a[i] + b[i];
}
