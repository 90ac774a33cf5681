// verdict: WRONG_ANSWER
// The tensor is read as if it were NHWC (channel fastest: x[k * C + c]) although it is NCHW
// (x[(n * C + c) * HW + p]): every channel's statistics mix all channels.
#define BLOCK 256
__device__ float block_sum(float v, float* s)
{
    int t = threadIdx.x;
    s[t] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    float total = s[0];
    __syncthreads();
    return total;
}
__global__ void bn_stats(const float* x, float* mean, float* var, int N, int C, int HW)
{
    __shared__ float s[BLOCK];
    int c = blockIdx.x, count = N * HW;
    float sum = 0.0f;
    for (int k = threadIdx.x; k < count; k += BLOCK) sum += x[(size_t)k * C + c];
    float m = block_sum(sum, s) / count;
    float sq = 0.0f;
    for (int k = threadIdx.x; k < count; k += BLOCK) { float d = x[(size_t)k * C + c] - m; sq += d * d; }
    float v = block_sum(sq, s) / count;
    if (threadIdx.x == 0) { mean[c] = m; var[c] = v; }
}
