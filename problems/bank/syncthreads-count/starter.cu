// counts[blockIdx.x] = number of elements x[i] > 0 among this block's elements (i < n).
// Launch (fixed): block = 256, grid = ceil_div(n, 256).
__global__ void count_positive(const float* x, int* counts, int n)
{
    // TODO: one __syncthreads_count(...) reached by every thread of the block.
}
