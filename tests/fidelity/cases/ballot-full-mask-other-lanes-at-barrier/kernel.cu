__global__ void k(const float* x, float* y, int n)
{
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    unsigned int votes = 0;
    if (t % 32 < 16)
        votes = __ballot_sync(0xffffffff, x[i] > 0.0f);   // lanes 16..31 never come
    else
        __syncthreads();
    y[i] = (float)__popc(votes);
}
