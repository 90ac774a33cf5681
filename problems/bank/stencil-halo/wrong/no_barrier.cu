// verdict: SYNC_ERROR
// No barrier between the loads and the stencil: thread t reads tile cells that threads t - 3 ..
// t + 3 (and the halo loaders) may not have written yet - a shared-memory race.
#define BLOCK 256
#define RADIUS 3
__constant__ float W[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
__global__ void stencil7(const float* x, float* y, int n)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    int t = threadIdx.x, base = blockIdx.x * BLOCK, i = base + t;
    tile[RADIUS + t] = (i < n) ? x[i] : 0.0f;
    if (t < RADIUS) {
        int left = base - RADIUS + t, right = base + BLOCK + t;
        tile[t] = (left >= 0) ? x[left] : 0.0f;
        tile[RADIUS + BLOCK + t] = (right < n) ? x[right] : 0.0f;
    }
    if (i < n) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k) acc += W[k + RADIUS] * tile[RADIUS + t + k];
        y[i] = acc;
    }
}
