// verdict: SYNC_ERROR
// No barrier between reading the max from s[0] and writing the partial sums into s: thread 0
// overwrites s[0] while other threads may still be reading the max - a race.
#define BLOCK 256
extern "C" __global__ void log_softmax_rows(const float* __restrict__ z, float* __restrict__ y,
                                            int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    const float* zr = z + (size_t)row * cols;
    float m = -INFINITY;
    for (int c = t; c < cols; c += BLOCK) m = fmaxf(m, zr[c]);
    s[t] = m;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = fmaxf(s[t], s[t + stride]);
        __syncthreads();
    }
    m = s[0];
    float sum = 0.0f;
    for (int c = t; c < cols; c += BLOCK) sum += expf(zr[c] - m);
    s[t] = sum;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    float lse = logf(s[0]);
    for (int c = t; c < cols; c += BLOCK) y[(size_t)row * cols + c] = zr[c] - m - lse;
}
