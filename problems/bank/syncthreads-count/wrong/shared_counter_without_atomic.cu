// verdict: SYNC_ERROR
// rule: 14 (docs/synchronization.md, the barrier rule's table)
// Counts with `c++` on a shared counter: a load, an add and a store, so two threads can
// both read the same old value and one increment is lost. A shared-memory race.
__global__ void count_positive(const float* x, int* counts, int n)
{
    __shared__ int c;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    if (i < n && x[i] > 0.0f) {
        c++;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        counts[blockIdx.x] = c;
    }
}
