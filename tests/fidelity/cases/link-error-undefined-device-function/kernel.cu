__device__ float scale(float v);   // declared, never defined

__global__ void k(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = scale(x[i]);
}
