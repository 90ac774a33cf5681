// __syncthreads_count waits for every thread of the block and returns, to all of them, how
// many passed a non-zero predicate. Threads past n take part with a false predicate.
__global__ void count_positive(const float* x, int* counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int positive = (i < n) && (x[i] > 0.0f);
    int total = __syncthreads_count(positive);
    if (threadIdx.x == 0) {
        counts[blockIdx.x] = total;
    }
}
