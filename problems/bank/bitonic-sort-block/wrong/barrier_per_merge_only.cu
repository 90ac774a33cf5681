// verdict: SYNC_ERROR
// rule: 1b (docs/synchronization.md, the barrier rule's table)
// One barrier per merge size k instead of one per step j: within a merge, a thread compares with a
// partner whose slot another thread is swapping in the same or the previous step - a race.
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
            }
        }
        __syncthreads();
    }
    if (i < n) y[i] = s[t];
}
