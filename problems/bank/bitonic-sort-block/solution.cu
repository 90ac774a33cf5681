#define BLOCK 256
#define PAD 0x7fffffff  // INT_MAX: padding sorts to the end of a short segment

// Bitonic sort: for each merge size k = 2, 4, ..., 256 and each distance j = k/2, ..., 1, thread t
// compares s[t] with its partner s[t ^ j] and orders the pair ascending when bit k of t is 0,
// descending otherwise. Only the lower thread of a pair swaps, and every thread reaches the barrier
// after every step: the next step reads what this one wrote.
__global__ void sort_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? x[i] : PAD;
    __syncthreads();
    for (int k = 2; k <= BLOCK; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int partner = t ^ j;
            if (partner > t) {
                bool ascending = (t & k) == 0;
                int a = s[t], b = s[partner];
                if ((a > b) == ascending) {
                    s[t] = b;
                    s[partner] = a;
                }
            }
            __syncthreads();
        }
    }
    if (i < n) y[i] = s[t];
}
