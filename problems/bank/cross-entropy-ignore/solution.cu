#define BLOCK 128
#define IGNORE_INDEX (-100)

// Block `row` computes one row's loss; thread t visits classes t, t + 128, ...
__global__ void cross_entropy(const float* logits, const int* target, float* loss_sum, int* valid,
                              int rows, int classes)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    int label = target[row];
    if (label == IGNORE_INDEX) return;  // the whole block leaves together: no barrier is split
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
    __syncthreads();  // s[0] read by everyone before it is reused

    float sum = 0.0f;
    for (int c = t; c < classes; c += BLOCK) sum += expf(l[c] - m);
    s[t] = sum;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(loss_sum, logf(s[0]) + m - l[label]);
        atomicAdd(valid, 1);
    }
}
