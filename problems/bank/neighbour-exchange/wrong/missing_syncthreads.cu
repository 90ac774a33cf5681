// verdict: SYNC_ERROR
// rule: 1b (docs/synchronization.md, the barrier rule's table)
// No barrier between the write of s[t] and the read of s[t + 1]: the neighbour (often in
// another warp) may not have written its slot yet. A shared-memory race; on a GPU the
// output is usually right anyway, which is why the judge runs a race check.
__global__ void neighbour_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;
    int m = min((int)blockDim.x, n - start);

    if (i < n) {
        s[t] = x[i];
        out[i] = s[t] + s[(t + 1) % m];
    }
}
