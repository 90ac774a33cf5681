// verdict: WRONG_ANSWER
// Threads past n put 0 in shared memory instead of INT_MIN: 0 is not the identity of max, and
// every x is negative, so the ragged last block reports 0.
#define BLOCK 256
extern "C" __global__ void max_atomic(const int* __restrict__ x, int* result, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? x[i] : 0;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = max(s[t], s[t + stride]);
        __syncthreads();
    }
    if (t == 0) atomicMax(result, s[0]);
}
