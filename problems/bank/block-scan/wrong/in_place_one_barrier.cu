// verdict: SYNC_ERROR
// In place with one barrier per step: thread t reads s[t - offset] while thread t - offset may be
// overwriting it in the same step - a shared-memory race (in place needs read, barrier, write, barrier).
#define BLOCK 256
__global__ void block_scan(const float* x, float* out, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        if (t >= offset) s[t] += s[t - offset];
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
}
