// Grid-stride loop: start at the global index and step by the number of threads in the
// whole grid, so any grid size covers every element exactly once.
__global__ void scale(const float* x, float* y, float alpha, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        y[i] = alpha * x[i];
    }
}
