// verdict: DEADLOCK
// rule: 9 (docs/synchronization.md, the barrier rule's table)
// The kernel as given. Thread 0 waits at a __syncthreads() that the other 255 threads never
// reach: they are alive, spinning on `ready`, which thread 0 sets only after the barrier.
// Neither side can move. On an H200 this hangs until the process is killed.
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
