// verdict: WRONG_ANSWER
// __syncthreads_or answers "is any predicate non-zero?" (0 or 1), not "how many?".
__global__ void count_positive(const float* x, int* counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int positive = (i < n) && (x[i] > 0.0f);
    int any = __syncthreads_or(positive);
    if (threadIdx.x == 0) {
        counts[blockIdx.x] = any;
    }
}
