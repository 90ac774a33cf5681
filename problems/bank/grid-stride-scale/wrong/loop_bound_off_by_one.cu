// verdict: MEMORY_ERROR
// `i <= n` lets one thread touch x[n] and y[n], one past the end.
__global__ void scale(const float* x, float* y, float alpha, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += stride) {
        y[i] = alpha * x[i];
    }
}
