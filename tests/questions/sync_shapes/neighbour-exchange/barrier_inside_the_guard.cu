// verdict: ACCEPTED
// rule: 3 (docs/synchronization.md): the tail skips the barrier inside `if (i < n)` and only exits
#define BLOCK 256

extern "C" __global__ void neighbour_sum(const float* x, float* out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x, start = blockIdx.x * blockDim.x, i = start + t;
    if (i < n) {
        int m = min((int)blockDim.x, n - start);
        s[t] = x[i];
        __syncthreads();                     // threads past n never come here: they have exited
        out[i] = s[t] + s[(t + 1) % m];
    }
}
