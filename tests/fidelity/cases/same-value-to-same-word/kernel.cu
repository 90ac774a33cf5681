__global__ void k(const float* x, int* y, int n)
{
    __shared__ int any_negative;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t == 0) any_negative = 0;
    __syncthreads();
    if (x[i] < 0.0f) any_negative = 1;           // several threads store the same value to one word
    __syncthreads();
    y[i] = any_negative ? -1 : 1;
}
