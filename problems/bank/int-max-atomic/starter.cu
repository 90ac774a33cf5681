#include <climits>
#define BLOCK 256

extern "C" __global__ void max_atomic(const int* __restrict__ x, int* result, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    // 1. s[t] = x[i], or the identity of max for threads past n.
    // 2. Tree reduction with max.
    // 3. One atomicMax(result, ...) per block.
}
