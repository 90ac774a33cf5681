__global__ void k(const float* x, float* y, int n)
{
    int i = blockIdx.x * 32 + threadIdx.x;   // 16-thread blocks: lanes 16..31 do not exist
    float v = x[blockIdx.x * 16 + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffff, v, off);
    if (threadIdx.x == 0) y[blockIdx.x] = v;
    (void)i;
}
