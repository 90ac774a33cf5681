#define BLOCK 256

__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    s[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();                         // reached by every thread, every trip
    }
    if (t == 0) y[blockIdx.x] = s[0];
}
