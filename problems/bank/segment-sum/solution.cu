// One block per segment: thread t loads element t of segment blockIdx.x (where the layout puts
// it), then the halving tree adds the upper half into the lower half until s[0] holds the sum.
#define BLOCK {{BLOCK}}
#define LAYOUT_{{LAYOUT}} 1

__global__ void segment_sum(const float* x, float* out, int m)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int seg = blockIdx.x;
#ifdef LAYOUT_row
    s[t] = x[seg * BLOCK + t];  // the segment is contiguous
#else
    s[t] = x[t * m + seg];  // the segment is a column: element t lies m floats after element t - 1
#endif
    __syncthreads();

    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) {
            s[t] += s[t + stride];
        }
        __syncthreads();  // this step's sums are read by the next step
    }
    if (t == 0) {
        out[seg] = s[0];
    }
}
