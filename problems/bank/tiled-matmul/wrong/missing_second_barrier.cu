// verdict: SYNC_ERROR
// The barrier after the multiply is gone. A thread that finishes its 16 products goes round the
// loop and stores tile t + 1 into As/Bs while slower threads of its block still read tile t:
// a write-after-read race on shared memory. On a GPU the warps of a block often stay close
// enough that the output is right; the race check sees it on the smallest test (two K tiles).
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
        // (no barrier here: "the loads wait at the barrier above anyway")
    }
    if (row < M && col < N) {
        C[row * N + col] = acc;
    }
}
