// verdict: MEMORY_ERROR
// Written for matrices that are whole tiles: no guard on the loads or on the store. With
// M, N or K not a multiple of 16 the edge blocks read past the end of A and B and write past
// the end of C (the products they add may even look harmless: the stray reads are the bug).
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
        As[ty][tx] = A[row * K + ka];
        Bs[ty][tx] = B[kb * N + col];
        __syncthreads();  // both tiles are complete before anyone multiplies them

        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();  // everyone is done with these tiles before the next loads overwrite them
    }
    C[row * N + col] = acc;
}
