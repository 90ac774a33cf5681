// verdict: WRONG_ANSWER
// The last segment is reversed as if it had 256 elements: its threads read s[255 - t], slots the
// short segment never filled, and the values land in the wrong places.
#define BLOCK 256
__global__ void reverse_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? x[i] : 0;
    __syncthreads();
    if (i < n) y[i] = s[BLOCK - 1 - t];
}
