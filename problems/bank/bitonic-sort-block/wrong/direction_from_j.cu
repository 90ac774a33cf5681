// verdict: WRONG_ANSWER
// The pair's direction comes from bit j of t instead of bit k: the sequences merged are no longer
// bitonic, and the network does not sort.
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
                bool ascending = (t & j) == 0;
                int a = s[t], b = s[partner];
                if ((a > b) == ascending) { s[t] = b; s[partner] = a; }
            }
            __syncthreads();
        }
    }
    if (i < n) y[i] = s[t];
}
