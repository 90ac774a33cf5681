// verdict: WRONG_ANSWER
// The block's first column is taken as blockIdx.x * 16, as in the uncoarsened kernel: block b
// covers columns 16b .. 16b + 31, so neighbouring blocks overlap and the last 16 * gridDim.x
// columns of C (from 16 * (gridDim.x + 1) on) are never written.
#define TILE 16
#define COARSEN 2
extern "C" __global__ void coarsened_matmul(const float* __restrict__ A, const float* __restrict__ B,
                                            float* __restrict__ C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[COARSEN][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col0 = blockIdx.x * TILE + tx;
    float acc[COARSEN] = {0.0f, 0.0f};
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + tx;
        int kb = t * TILE + ty;
        As[ty][tx] = (row < M && ka < K) ? A[(size_t)row * K + ka] : 0.0f;
        for (int c = 0; c < COARSEN; ++c) {
            int col = col0 + c * TILE;
            Bs[c][ty][tx] = (kb < K && col < N) ? B[(size_t)kb * N + col] : 0.0f;
        }
        __syncthreads();
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
