// One barrier that every thread of the block reaches does both jobs of the flag: nobody
// reads m before thread 0 has written it, and the write is visible to the whole block.
__global__ void subtract_block_min(const int* x, int* out, int n)
{
    __shared__ int m;
    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;

    if (t == 0) {
        int end = min(start + (int)blockDim.x, n);
        int v = x[start];
        for (int k = start + 1; k < end; ++k) v = min(v, x[k]);
        m = v;
    }
    __syncthreads();
    if (i < n) out[i] = x[i] - m;
}
