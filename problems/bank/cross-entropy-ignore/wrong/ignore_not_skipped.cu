// verdict: MEMORY_ERROR
// Rows with target -100 are not skipped: l[label] reads 100 floats before the row, which for the
// first row is before the start of logits.
#define BLOCK 128
__global__ void cross_entropy(const float* logits, const int* target, float* loss_sum, int* valid,
                              int rows, int classes)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x, label = target[row];
    const float* l = logits + (size_t)row * classes;
    float m = -INFINITY;
    for (int c = t; c < classes; c += BLOCK) m = fmaxf(m, l[c]);
    s[t] = m;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = fmaxf(s[t], s[t + stride]);
        __syncthreads();
    }
    m = s[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = t; c < classes; c += BLOCK) sum += expf(l[c] - m);
    s[t] = sum;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) { atomicAdd(loss_sum, logf(s[0]) + m - l[label]); atomicAdd(valid, 1); }
}
