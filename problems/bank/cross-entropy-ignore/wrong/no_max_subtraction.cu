// verdict: WRONG_ANSWER
// log(sum exp(l)) without the max: rows offset by +1000 overflow to inf, rows offset by -1000
// underflow to log(0) = -inf, and the loss sum becomes inf or NaN.
#define BLOCK 128
#define IGNORE_INDEX (-100)
__global__ void cross_entropy(const float* logits, const int* target, float* loss_sum, int* valid,
                              int rows, int classes)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x, label = target[row];
    if (label == IGNORE_INDEX) return;
    const float* l = logits + (size_t)row * classes;
    float sum = 0.0f;
    for (int c = t; c < classes; c += BLOCK) sum += expf(l[c]);
    s[t] = sum;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) { atomicAdd(loss_sum, logf(s[0]) - l[label]); atomicAdd(valid, 1); }
}
