__global__ void k(const float* x, float* y, int n)
{
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t % 32 == 0) {
        unsigned int votes = __ballot_sync(0xffffffff, x[i] > 0.0f);   // only lane 0 of each warp
        y[i] = (float)__popc(votes);
    } else {
        y[i] = 2.0f * x[i];
    }
}
