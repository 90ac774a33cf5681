// verdict: WRONG_ANSWER
// Wraps with blockDim.x instead of the block's element count: in a partial block the last
// element's neighbour is s[m], a slot no thread wrote (uninitialised shared memory).
__global__ void neighbour_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;

    if (i < n) {
        s[t] = x[i];
    }
    __syncthreads();
    if (i < n) {
        out[i] = s[t] + s[(t + 1) % blockDim.x];
    }
}
