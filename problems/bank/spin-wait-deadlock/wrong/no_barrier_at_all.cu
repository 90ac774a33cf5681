// verdict: SYNC_ERROR
// rule: 1b (docs/synchronization.md, the barrier rule's table)
// Drops the flag and the barrier: the other threads read m while thread 0 may still be
// computing it. A shared-memory race (read before write).
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
    if (i < n) out[i] = x[i] - m;
}
