// C = A @ B: A is M x K, B is K x N, C is M x N, all row-major (A[row * K + k], B[k * N + col]).
// Launch (fixed): block = (16, 16), grid = (ceil_div(N, 16), ceil_div(M, 16)).
#define TILE 16

__global__ void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    // TODO: for each tile of K: load one element of A and one of B per thread (0 outside the
    // matrices), synchronise, multiply the tiles into an accumulator, synchronise again.
    // Then write C[row * N + col] if (row, col) is inside C.
}
