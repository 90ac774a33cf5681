// verdict: SYNC_ERROR
// rule: 8 (docs/synchronization.md, the barrier rule's table)
// "Every thread hits a barrier" -- but not the same one. In a partial block the threads
// with i < n wait at the first __syncthreads() and the others at the second: barriers
// reached under a condition that differs inside the block are undefined behaviour.
// (The H200 happens to complete this; compute-sanitizer synccheck reports it.)
__global__ void neighbour_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;
    int m = min((int)blockDim.x, n - start);

    if (i < n) {
        s[t] = x[i];
        __syncthreads();
        out[i] = s[t] + s[(t + 1) % m];
    } else {
        __syncthreads();
    }
}
