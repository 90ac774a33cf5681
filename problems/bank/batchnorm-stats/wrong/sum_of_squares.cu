// verdict: WRONG_ANSWER
// One pass with E[x^2] - mean^2: the squares are about 1e6, float32 keeps about 7 significant
// digits, and the difference (about 0.25) is lost to rounding - catastrophic cancellation.
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
    float sum = 0.0f, sq = 0.0f;
    for (int k = threadIdx.x; k < count; k += BLOCK) {
        float v = x[((size_t)(k / HW) * C + c) * HW + k % HW];
        sum += v;
        sq += v * v;
    }
    float m = block_sum(sum, s) / count;
    float e2 = block_sum(sq, s) / count;
    if (threadIdx.x == 0) { mean[c] = m; var[c] = e2 - m * m; }
}
