#define BLOCK 256

__global__ void reverse_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int base = blockIdx.x * BLOCK;
    int len = min(BLOCK, n - base);  // the last segment may be shorter
    if (t < len) s[t] = x[base + t];
    __syncthreads();  // thread t reads the slot thread len - 1 - t wrote
    if (t < len) y[base + t] = s[len - 1 - t];
}
