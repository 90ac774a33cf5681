// Your variant: BLOCK = {{BLOCK}} threads per block, layout {{LAYOUT}}.
// out[blockIdx.x] = the sum of segment blockIdx.x's {{BLOCK}} values (see the statement for where
// layout {{LAYOUT}} puts them). Launch (fixed): block = {{BLOCK}}, grid = m.
#define BLOCK {{BLOCK}}

__global__ void segment_sum(const float* x, float* out, int m)
{
    __shared__ float s[BLOCK];
    // TODO: load element threadIdx.x of this block's segment, tree-reduce, thread 0 writes out.
}
