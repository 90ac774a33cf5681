// verdict: SYNC_ERROR
// The barrier moved into the branch: threads with t < offset skip it and go on to the next step's
// reads while the others wait - a divergent barrier.
#define BLOCK 256
__global__ void block_scan(const float* x, float* out, int n)
{
    __shared__ float buf[2][BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t, in = 0;
    buf[0][t] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        int o = 1 - in;
        if (t >= offset) {
            buf[o][t] = buf[in][t] + buf[in][t - offset];
            __syncthreads();
        } else {
            buf[o][t] = buf[in][t];
        }
        in = o;
    }
    if (i < n) out[i] = buf[in][t];
}
