// C = A @ B in 16 x 16 tiles: each block computes one tile of C, walking K a tile at a time.
// Every thread loads one element of A's tile and one of B's (0 outside the matrices, so the
// products of the ragged edges add nothing), then the block multiplies the two tiles.
#define TILE 16

__global__ void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + tx;  // the column of A this thread loads
        int kb = t * TILE + ty;  // the row of B this thread loads
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();  // both tiles are complete before anyone multiplies them

        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();  // everyone is done with these tiles before the next loads overwrite them
    }
    if (row < M && col < N) {
        C[row * N + col] = acc;
    }
}
