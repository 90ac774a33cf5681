// verdict: SYNC_ERROR
// The loop's barrier moved inside `if (t < stride)`, and an `else` barrier added "so that
// every thread still reaches a barrier". They are two different __syncthreads() calls, chosen
// by a condition that differs inside the block (and inside a warp once stride < 32): that is
// undefined behaviour, not one barrier. compute-sanitizer synccheck reports it on an H200.
// (Two shapes of this bug are not used here: with no `else` the skipping threads simply run
// on and exit, which neither the H200 nor any checker notices; with one more barrier after
// the loop instead of the `else`, the H200 hangs outright.)
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
        } else {
            __syncthreads();
        }
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}
