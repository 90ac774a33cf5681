// out[i] = x[i] + x[right neighbour of i], where neighbours wrap around inside the
// elements owned by i's block. Read each element from global memory once: stage the
// block's slice in shared memory and read the neighbour from there.
// Launch (fixed): block = 256, grid = ceil_div(n, 256).
__global__ void neighbour_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    // TODO
}
