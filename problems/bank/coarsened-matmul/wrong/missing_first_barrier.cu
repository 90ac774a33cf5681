// verdict: SYNC_ERROR
// No barrier between the tile loads and the multiply: thread (tx, ty) reads As[ty][k] and
// Bs[c][k][tx], written by other threads that may not have stored them yet - a race.
#define TILE 16
#define COARSEN 2
extern "C" __global__ void coarsened_matmul(const float* __restrict__ A, const float* __restrict__ B,
                                            float* __restrict__ C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[COARSEN][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col0 = blockIdx.x * TILE * COARSEN + tx;
    float acc[COARSEN] = {0.0f, 0.0f};
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + tx;
        int kb = t * TILE + ty;
        As[ty][tx] = (row < M && ka < K) ? A[(size_t)row * K + ka] : 0.0f;
        for (int c = 0; c < COARSEN; ++c) {
            int col = col0 + c * TILE;
            Bs[c][ty][tx] = (kb < K && col < N) ? B[(size_t)kb * N + col] : 0.0f;
        }
        for (int k = 0; k < TILE; ++k) {
            float a = As[ty][k];
            for (int c = 0; c < COARSEN; ++c) acc[c] += a * Bs[c][k][tx];
        }
        __syncthreads();
    }
    for (int c = 0; c < COARSEN; ++c) {
        int col = col0 + c * TILE;
        if (row < M && col < N) C[(size_t)row * N + col] = acc[c];
    }
}
