// verdict: WRONG_ANSWER
// The one-thread-per-element kernel: right as long as the grid has n threads, but the
// grid is capped at 2048 threads, so from n = 2049 on the tail is never written.
__global__ void scale(const float* x, float* y, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = alpha * x[i];
    }
}
