__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = x[i];
    float v = 0.0f;
    if (t % 2) {
        for (int j = 0; j < 64; ++j) v += s[(t + 7 * j) % 256] * (j + 1);
        __syncthreads();                         // odd lanes wait here
        v += s[255 - t];
    } else {
        __syncthreads();                         // even lanes wait here
        for (int j = 0; j < 64; ++j) v -= s[(t + 5 * j) % 256] * (j + 2);
        v += s[255 - t];
    }
    y[i] = s[255 - t];
    if (v == 12345.0f) y[i] = v;                 // keep v alive: both branches do real work
}
