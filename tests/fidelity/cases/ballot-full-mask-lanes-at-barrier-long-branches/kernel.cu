__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = x[i];
    float v = 0.0f;
    if (t % 32 < 16) {
        for (int j = 0; j < 64; ++j) v += s[(t + 7 * j) % 256] * (j + 1);
        v += (float)__popc(__ballot_sync(0xffffffff, v > 0.0f));   // lanes 16..31 never come here
    } else {
        for (int j = 0; j < 64; ++j) v -= s[(t + 5 * j) % 256] * (j + 2);
        __syncthreads();                                           // they wait here
        v += s[255 - t];
    }
    y[i] = 2.0f * x[i];
    if (v == 12345.0f) y[i] = v;                                   // keep v alive
}
