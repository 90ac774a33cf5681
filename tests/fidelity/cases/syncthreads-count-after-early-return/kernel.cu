#define BLOCK 256

// Positive elements per block: the tail of the last block returns before the counting barrier.
extern "C" __global__ void __launch_bounds__(BLOCK) count_positive(const float* x, int* counts, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n) return;
    int total = __syncthreads_count(x[i] > 0.0f);   // waits for, and counts, the threads still running
    if (threadIdx.x == 0) counts[blockIdx.x] = total;
}
