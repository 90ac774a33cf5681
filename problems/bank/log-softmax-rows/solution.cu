#define BLOCK 256

// Block `row` handles one row; thread t visits columns t, t + 256, ... (coalesced).
extern "C" __global__ void log_softmax_rows(const float* __restrict__ z, float* __restrict__ y,
                                            int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    const float* zr = z + (size_t)row * cols;

    // 1. The row's max.
    float m = -INFINITY;
    for (int c = t; c < cols; c += BLOCK) m = fmaxf(m, zr[c]);
    s[t] = m;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = fmaxf(s[t], s[t + stride]);
        __syncthreads();
    }
    m = s[0];
    __syncthreads();  // everyone has read s[0] before s is reused

    // 2. log of the sum of exp(z - m): the sum is in [1, cols].
    float sum = 0.0f;
    for (int c = t; c < cols; c += BLOCK) sum += expf(zr[c] - m);
    s[t] = sum;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    float lse = logf(s[0]);

    // 3. y = z - m - lse: no exp, no division, nothing to underflow.
    for (int c = t; c < cols; c += BLOCK) y[(size_t)row * cols + c] = zr[c] - m - lse;
}
