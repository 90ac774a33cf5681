#include <climits>
#define BLOCK 256

extern "C" __global__ void max_atomic(const int* __restrict__ x, int* result, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    // 1. s[t] = x[i], n을 넘는 thread는 max의 항등원.
    // 2. max로 tree reduction.
    // 3. block마다 atomicMax(result, ...) 한 번.
}
