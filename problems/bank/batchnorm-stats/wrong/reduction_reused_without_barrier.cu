// verdict: SYNC_ERROR
// block_sum returns s[0] without a barrier after it is read: the second reduction's first write
// (s[t] = v) can overwrite s[0] while slow threads are still reading the mean - a race.
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
    return s[0];
}
__global__ void bn_stats(const float* x, float* mean, float* var, int N, int C, int HW)
{
    __shared__ float s[BLOCK];
    int c = blockIdx.x, count = N * HW;
    float sum = 0.0f;
    for (int k = threadIdx.x; k < count; k += BLOCK) sum += x[((size_t)(k / HW) * C + c) * HW + k % HW];
    float m = block_sum(sum, s) / count;
    float sq = 0.0f;
    for (int k = threadIdx.x; k < count; k += BLOCK) {
        float d = x[((size_t)(k / HW) * C + c) * HW + k % HW] - m;
        sq += d * d;
    }
    float v = block_sum(sq, s) / count;
    if (threadIdx.x == 0) { mean[c] = m; var[c] = v; }
}
