// verdict: WRONG_ANSWER
// Textbook softmax without the max: expf(1000) is inf in float32, so rows centred on +1000 become
// inf / inf = NaN, and rows centred on -1000 become 0 / 0 = NaN.
#define BLOCK 256
__global__ void softmax_rows(const float* z, float* y, int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    const float* zr = z + (size_t)row * cols;
    float sum = 0.0f;
    for (int c = t; c < cols; c += BLOCK) sum += expf(zr[c]);
    s[t] = sum;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    float total = s[0];
    for (int c = t; c < cols; c += BLOCK) y[(size_t)row * cols + c] = expf(zr[c]) / total;
}
