__global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = x[i];
    if (t % 32 < 16) {
        __syncthreads();                         // half of every warp
        y[i] = s[255 - t];
    } else {
        y[i] = s[255 - t];                       // the other half skips it and touches memory
    }
}
