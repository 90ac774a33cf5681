// Halving tree: at each step the lower half adds in the upper half. The barrier is
// outside the `if`, so every thread of the block reaches each one.
__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;

    s[t] = (i < n) ? x[i] : 0.0f;  // pad the partial block with zeros
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();  // this step's sums are read by the next step
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}
