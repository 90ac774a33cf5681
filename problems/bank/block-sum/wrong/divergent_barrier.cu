// verdict: SYNC_ERROR
// The loop's barrier moved inside `if (t < stride)`, plus one after the loop "so that s[0]
// is complete". Now only the active half waits at the loop's barrier while the other threads
// run ahead to the one after the loop: two different __syncthreads() calls at once, under a
// condition that differs inside the block (and inside a warp once stride < 32). Undefined
// behaviour; compute-sanitizer synccheck reports it on an H200.
// (Without the barrier after the loop, the skipping threads simply exit: still undefined by
// the CUDA spec, but neither the H200 nor any checker can tell, so it is not used here.)
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
            __syncthreads();
        }
    }
    __syncthreads();
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}
