// verdict: MEMORY_ERROR
// The halo loads are not guarded: block 0's left halo reads x[-3..-1], and the last block's right
// halo reads past the end of x.
#define BLOCK 256
#define RADIUS 3
__constant__ float W[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
__global__ void stencil7(const float* x, float* y, int n)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    int t = threadIdx.x, base = blockIdx.x * BLOCK, i = base + t;
    tile[RADIUS + t] = (i < n) ? x[i] : 0.0f;
    if (t < RADIUS) {
        tile[t] = x[base - RADIUS + t];
        tile[RADIUS + BLOCK + t] = x[base + BLOCK + t];
    }
    __syncthreads();
    if (i < n) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k) acc += W[k + RADIUS] * tile[RADIUS + t + k];
        y[i] = acc;
    }
}
