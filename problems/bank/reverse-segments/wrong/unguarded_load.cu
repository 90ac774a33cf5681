// verdict: MEMORY_ERROR
// The load is not guarded: in the last block, threads past n read beyond the end of x.
#define BLOCK 256
__global__ void reverse_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x, base = blockIdx.x * BLOCK, len = min(BLOCK, n - base);
    s[t] = x[base + t];
    __syncthreads();
    if (t < len) y[base + t] = s[len - 1 - t];
}
