__constant__ float coeff[256];

__global__ void k(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    coeff[threadIdx.x] = x[i];
    y[i] = coeff[threadIdx.x];
}
