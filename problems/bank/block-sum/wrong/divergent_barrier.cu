// verdict: SYNC_ERROR
// gpu-verdict: TIME_LIMIT (sm_90 hangs at the split barrier; no emulator on the GPU worker proves the divergence)
// The loop's barrier moved inside `if (t < stride)`, and an `else` barrier added "so that
// every thread still reaches a barrier". They are two different __syncthreads() calls, chosen
// by a condition that differs inside the block (and inside a warp once stride < 32): that is
// undefined behaviour, not one barrier. Measured on an H200: the kernel hangs, and
// compute-sanitizer synccheck reports "Divergent thread(s) in block" on the smallest test.
// Graded SYNC_ERROR whatever the hardware does (the emulator lets the two barriers release
// together and reports them). Without the `else`, the skipping threads simply run on and
// exit: still undefined by the CUDA spec, but the H200 completes it correctly and no checker
// notices, so that shape is not used here.
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
