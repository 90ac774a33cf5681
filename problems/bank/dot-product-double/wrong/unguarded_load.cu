// verdict: MEMORY_ERROR
// The loads are not guarded: the last block's threads past n read beyond the ends of a and b.
#define BLOCK 256
extern "C" __global__ void dot_double(const float* __restrict__ a, const float* __restrict__ b,
                                      double* result, int n)
{
    __shared__ double s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (double)a[i] * (double)b[i];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0 && blockIdx.x * BLOCK < n) atomicAdd(result, s[0]);
}
