// verdict: WRONG_ANSWER
// Only the block's own elements are loaded: the halo cells hold whatever shared memory held, so the
// first and last 3 outputs of every block are wrong.
#define BLOCK 256
#define RADIUS 3
__constant__ float W[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
__global__ void stencil7(const float* x, float* y, int n)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
    tile[RADIUS + t] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    if (i < n) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k) acc += W[k + RADIUS] * tile[RADIUS + t + k];
        y[i] = acc;
    }
}
