// verdict: SYNC_ERROR
// No barrier between reading the max from s[0] and writing the partial sums into s: a fast thread
// 0 overwrites s[0] while slower threads are still reading the max from it - a race.
#define BLOCK 256
__global__ void softmax_rows(const float* z, float* y, int rows, int cols)
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
    float total = s[0];
    for (int c = t; c < cols; c += BLOCK) y[(size_t)row * cols + c] = expf(zr[c] - m) / total;
}
