__global__ void k(const float* x, float* y, float* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i];
    // missing: any ordering between blocks (a second kernel, or a grid-wide sync)
    z[i] = y[(i + blockDim.x) % n];              // written by the next block
}
