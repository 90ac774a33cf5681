// verdict: SYNC_ERROR
// gpu-verdict: WRONG_ANSWER (the race on gmax is in global memory, which racecheck does not see; blocks divide by a partial max)
// rule: 15 (docs/synchronization.md, the barrier rule's table)
// __syncthreads() waits for this block only: a fast block reads *gmax while other blocks are still
// updating it (an inter-block race), and divides by a max that is not yet the global one.
#define BLOCK 256
__global__ void normalize_by_max(const int* x, float* y, int* gmax, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x, stride = gridDim.x * blockDim.x, m = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) m = max(m, x[i]);
    s[t] = m;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
        if (t < half) s[t] = max(s[t], s[t + half]);
        __syncthreads();
    }
    if (t == 0) atomicMax(gmax, s[0]);
    __syncthreads();
    float top = (float)*gmax;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) y[i] = (float)x[i] / top;
}
