// verdict: WRONG_ANSWER
// `stride > 1` skips the last step: s[0] never gets s[1]'s half of the segment added in.
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

    for (int stride = BLOCK / 2; stride > 1; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[seg] = s[0];
    }
}
