__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    float v = x[i];
    if (t < 128) {
        s[t] = v;
        __syncthreads();                         // threads 128..255 skip it ...
        v = s[127 - t];
    }
    y[i] = v;                                    // ... and then touch memory
}
