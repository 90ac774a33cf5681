__global__ void k(const float* x, float* y, int n)
{
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    y[i] = 2.0f * x[i];
    if (t % 32 >= 16) return;                    // lanes 16..31 exit
    unsigned int votes = __ballot_sync(0xffffffff, x[i] > 0.0f);
    if (votes == 0xdeadbeef) y[i] = 0.0f;        // never true: the vote's value is not checked
}
