// Every thread of the block reaches the one barrier, including those with no element (the
// Programming Guide's rule: the condition around a __syncthreads() is the same for the whole
// block). Returning early for i >= n is accepted too: exited threads are not waited for.
__global__ void neighbour_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;
    int m = min((int)blockDim.x, n - start);  // elements owned by this block

    if (i < n) {
        s[t] = x[i];
    }
    __syncthreads();  // the neighbour's write must be complete and visible before we read it
    if (i < n) {
        out[i] = s[t] + s[(t + 1) % m];
    }
}
