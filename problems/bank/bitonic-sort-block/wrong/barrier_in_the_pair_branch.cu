// verdict: SYNC_ERROR
// gpu-verdict: TIME_LIMIT (sm_90 hangs: the two halves of each warp wait at different barriers; no emulator on the GPU worker proves it)
// rule: 5 (docs/synchronization.md, the barrier rule's table)
// The barrier is inside `if (partner > t)`: the upper thread of each pair skips it and goes on to
// the next step's reads while the lower threads wait - a divergent barrier.
#define BLOCK 256
#define PAD 0x7fffffff
__global__ void sort_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? x[i] : PAD;
    __syncthreads();
    for (int k = 2; k <= BLOCK; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int partner = t ^ j;
            if (partner > t) {
                bool ascending = (t & k) == 0;
                int a = s[t], b = s[partner];
                if ((a > b) == ascending) { s[t] = b; s[partner] = a; }
                __syncthreads();
            }
        }
    }
    if (i < n) y[i] = s[t];
}
