__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = x[i];
    if (t < 128) __syncthreads();                // warps 4..7 skip this one ...
    __syncthreads();                             // ... and meet warps 0..3 at this one
    y[i] = s[255 - t];
}
