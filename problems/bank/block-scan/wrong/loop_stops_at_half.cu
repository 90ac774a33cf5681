// verdict: WRONG_ANSWER
// The loop stops at offset < BLOCK / 2: the last step (offset 128) is missing, so elements past
// index 127 of each block miss the first half's sum.
#define BLOCK 256
__global__ void block_scan(const float* x, float* out, int n)
{
    __shared__ float buf[2][BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t, in = 0;
    buf[0][t] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < BLOCK / 2; offset <<= 1) {
        int o = 1 - in;
        buf[o][t] = buf[in][t] + ((t >= offset) ? buf[in][t - offset] : 0.0f);
        __syncthreads();
        in = o;
    }
    if (i < n) out[i] = buf[in][t];
}
