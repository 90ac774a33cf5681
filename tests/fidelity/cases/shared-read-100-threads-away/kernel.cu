__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[356];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = x[i];
    if (t < 100) s[t + 256] = x[i];
    // missing: __syncthreads();
    y[i] = s[t + 100];                           // written by thread t + 100 (or t - 156)
}
