// verdict: MEMORY_ERROR
// The load is not guarded: the last block's threads past n read beyond the end of x.
#define BLOCK 256
extern "C" __global__ void max_atomic(const int* __restrict__ x, int* result, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = x[i];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = max(s[t], s[t + stride]);
        __syncthreads();
    }
    if (t == 0) atomicMax(result, s[0]);
}
