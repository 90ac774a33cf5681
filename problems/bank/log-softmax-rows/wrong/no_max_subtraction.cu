// verdict: WRONG_ANSWER
// z - log(sum exp(z)) without the max: expf(1000) is inf and expf(-1000) is 0, so rows centred on
// +1000 give -inf and rows centred on -1000 give +inf.
#define BLOCK 256
extern "C" __global__ void log_softmax_rows(const float* __restrict__ z, float* __restrict__ y,
                                            int rows, int cols)
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
    float lse = logf(s[0]);
    for (int c = t; c < cols; c += BLOCK) y[(size_t)row * cols + c] = zr[c] - lse;
}
