// verdict: SYNC_ERROR
// The barrier after the loads is there, but none inside the loop: thread t reads
// s[t + stride] while thread t + stride may still be adding into it. A shared-memory race.
__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;

    s[t] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}
