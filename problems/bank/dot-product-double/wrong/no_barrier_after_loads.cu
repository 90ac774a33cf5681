// verdict: SYNC_ERROR
// No barrier between the loads and the first tree step: thread t reads s[t + 128] before thread
// t + 128 (another warp) may have written its product - a shared-memory race.
#define BLOCK 256
extern "C" __global__ void dot_double(const float* __restrict__ a, const float* __restrict__ b,
                                      double* result, int n)
{
    __shared__ double s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? (double)a[i] * (double)b[i] : 0.0;
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(result, s[0]);
}
