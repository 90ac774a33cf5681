// This kernel hangs. Make it correct without changing what it computes:
// out[i] = x[i] - (minimum of x over the elements of i's block), for i < n.
// Launch (fixed): block = 256, grid = ceil_div(n, 256).
__global__ void subtract_block_min(const int* x, int* out, int n)
{
    __shared__ int m;
    __shared__ volatile int ready;
    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;

    if (t == 0) ready = 0;
    __syncthreads();

    if (t == 0) {
        int end = min(start + (int)blockDim.x, n);
        int v = x[start];
        for (int k = start + 1; k < end; ++k) v = min(v, x[k]);
        m = v;
        __syncthreads();  // make m visible to the block
        ready = 1;
    } else {
        while (ready == 0) { }  // wait for thread 0
    }
    if (i < n) out[i] = x[i] - m;
}
