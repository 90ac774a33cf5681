// verdict: SYNC_ERROR
// The barrier moved inside `if (t < stride)`: only the active half reaches it, so the
// condition around __syncthreads() differs inside the block -- undefined behaviour.
__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;

    s[t] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        }
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}
