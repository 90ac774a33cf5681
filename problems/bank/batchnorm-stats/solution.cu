#define BLOCK 256

// Sum of v over the block, returned to every thread. `s` is reused by the caller afterwards, so the
// last barrier (after everyone has read s[0]) is part of the reduction.
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

// Block c: channel c's N * HW elements, x[(n * C + c) * HW + p]. Two passes: the mean, then the
// mean of (x - mean)^2, which keeps the small spread instead of cancelling two numbers near 1e6.
__global__ void bn_stats(const float* x, float* mean, float* var, int N, int C, int HW)
{
    __shared__ float s[BLOCK];
    int c = blockIdx.x;
    int count = N * HW;

    float sum = 0.0f;
    for (int k = threadIdx.x; k < count; k += BLOCK) {
        int n = k / HW, p = k % HW;
        sum += x[((size_t)n * C + c) * HW + p];
    }
    float m = block_sum(sum, s) / count;

    float sq = 0.0f;
    for (int k = threadIdx.x; k < count; k += BLOCK) {
        int n = k / HW, p = k % HW;
        float d = x[((size_t)n * C + c) * HW + p] - m;
        sq += d * d;
    }
    float v = block_sum(sq, s) / count;
    if (threadIdx.x == 0) {
        mean[c] = m;
        var[c] = v;
    }
}
