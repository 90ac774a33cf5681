// verdict: MEMORY_ERROR
// Every thread reaches the barrier -- good -- but the predicate reads x[i] for i >= n in the
// last block: an out-of-bounds read.
__global__ void count_positive(const float* x, int* counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int total = __syncthreads_count(x[i] > 0.0f);
    if (threadIdx.x == 0) {
        counts[blockIdx.x] = total;
    }
}
