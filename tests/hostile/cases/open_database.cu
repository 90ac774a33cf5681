// verdict: COMPILE_ERROR
// says: 'open' is not available
#include <cstdlib>
int open(const char*, int);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int fd = open("{{DB}}", 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = (float)fd;
}
