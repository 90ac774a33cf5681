// verdict: WRONG_ANSWER
// Counts the loop trips as n / stride, an integer division that rounds down: the last
// n % stride elements are never written (and for n < stride, nothing is).
__global__ void scale(const float* x, float* y, float alpha, int n)
{
    int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n / stride; ++k) {
        y[i + k * stride] = alpha * x[i + k * stride];
    }
}
