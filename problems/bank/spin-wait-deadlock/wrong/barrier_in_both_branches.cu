// verdict: SYNC_ERROR
// rule: 8 (docs/synchronization.md, the barrier rule's table)
// "Give the other threads a barrier too": thread 0 and the others now wait at two
// different __syncthreads() calls. That is undefined behaviour, not one barrier. The H200
// happens to let them through together (synccheck reports it); other GPUs need not.
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
        __syncthreads();
    } else {
        __syncthreads();
    }
    if (i < n) out[i] = x[i] - m;
}
