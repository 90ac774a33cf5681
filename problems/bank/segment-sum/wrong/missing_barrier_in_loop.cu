// verdict: SYNC_ERROR
// The barrier after the loads is there, but none inside the loop: thread t reads s[t + stride]
// while thread t + stride may still be adding into it. A shared-memory race under every variant.
#define BLOCK {{BLOCK}}
#define LAYOUT_{{LAYOUT}} 1

__global__ void segment_sum(const float* x, float* out, int m)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int seg = blockIdx.x;
#ifdef LAYOUT_row
    s[t] = x[seg * BLOCK + t];
#else
    s[t] = x[t * m + seg];
#endif
    __syncthreads();

    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
    }
    if (t == 0) {
        out[seg] = s[0];
    }
}
