#define BLOCK 256

// Kogge-Stone: after the step with offset d, buf[t] holds the sum of the 2d values ending at t.
// Each step reads buffer `in` and writes buffer `1 - in`, so no thread overwrites a value another
// thread still has to read: one barrier per step (after the writes) is enough.
__global__ void block_scan(const float* x, float* out, int n)
{
    __shared__ float buf[2][BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    int in = 0;

    buf[0][t] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        int o = 1 - in;
        buf[o][t] = buf[in][t] + ((t >= offset) ? buf[in][t - offset] : 0.0f);
        __syncthreads();
        in = o;
    }
    if (i < n) out[i] = buf[in][t];
}
