#include <climits>
#define BLOCK 256

// Each block reduces its 256 elements in shared memory; thread 0 then does one atomicMax.
extern "C" __global__ void max_atomic(const int* __restrict__ x, int* result, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;

    s[t] = (i < n) ? x[i] : INT_MIN;  // INT_MIN: the identity of max
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = max(s[t], s[t + stride]);
        __syncthreads();
    }
    if (t == 0) atomicMax(result, s[0]);
}
