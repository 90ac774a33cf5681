// verdict: WRONG_ANSWER
// The kernel of the other layout (a classmate's, say): it reads x as if the segments were stored
// the other way, so each block sums elements of other segments. With one segment (m = 1) both
// layouts coincide, which is why the five-segment sample is there.
#define BLOCK {{BLOCK}}
#define LAYOUT_{{LAYOUT}} 1

__global__ void segment_sum(const float* x, float* out, int m)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int seg = blockIdx.x;
#ifdef LAYOUT_row
    s[t] = x[t * m + seg];
#else
    s[t] = x[seg * BLOCK + t];
#endif
    __syncthreads();

    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[seg] = s[0];
    }
}
