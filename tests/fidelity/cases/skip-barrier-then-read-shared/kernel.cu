__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = x[i];
    if (t < 128) {
        __syncthreads();                         // warps 4..7 skip it ...
        y[i] = s[127 - t];
    } else {
        y[i] = s[t - 128];                       // ... and read what warps 0..3 wrote before it
    }
}
