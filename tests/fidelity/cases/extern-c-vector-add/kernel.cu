#define BLOCK 256

extern "C" __global__ void k(const float* x, float* y, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
