__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    __shared__ volatile int go;
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = (i < n) ? x[i] : 0.0f;
    if (t == 0) go = 0;
    __syncthreads();
    if (t < 128) {
        __syncthreads();          // only half the block gets here
        if (t == 0) go = 1;
    } else {
        while (!go) { }           // the other half waits for a flag set after the barrier
    }
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
