#define BLOCK 256

// Block `row` handles one row; thread t visits columns t, t + 256, ... (coalesced).
__global__ void softmax_rows(const float* z, float* y, int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    const float* zr = z + (size_t)row * cols;

    // 1. The row's max: each thread's own, then a tree over the block.
    float m = -INFINITY;
    for (int c = t; c < cols; c += BLOCK) m = fmaxf(m, zr[c]);
    s[t] = m;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = fmaxf(s[t], s[t + stride]);
        __syncthreads();
    }
    m = s[0];
    __syncthreads();  // everyone has read s[0] before s is reused for the sums

    // 2. The sum of exp(z - m): every term is <= 1, the largest is exactly 1.
    float sum = 0.0f;
    for (int c = t; c < cols; c += BLOCK) sum += expf(zr[c] - m);
    s[t] = sum;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    float total = s[0];

    // 3. Normalise.
    for (int c = t; c < cols; c += BLOCK) y[(size_t)row * cols + c] = expf(zr[c] - m) / total;
}
