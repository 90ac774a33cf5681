__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;                          // the tail of the last block exits
    s[t] = x[i];
    __syncthreads();
    int last = min(255, n - 1 - (int)(blockIdx.x * blockDim.x));
    y[i] = s[last - t];
}
