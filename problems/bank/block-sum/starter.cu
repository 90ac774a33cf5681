// out[blockIdx.x] = sum of the (up to) 256 elements x[256 * blockIdx.x + t], t < 256, below n.
// Launch (fixed): block = 256, grid = ceil_div(n, 256).
__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    // TODO: load (0 past the end), tree-reduce in shared memory, thread 0 writes the result.
}
