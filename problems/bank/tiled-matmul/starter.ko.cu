// C = A @ B: A는 M x K, B는 K x N, C는 M x N, 모두 row-major (A[row * K + k], B[k * N + col]).
// 실행 구성(고정): block = (16, 16), grid = (ceil_div(N, 16), ceil_div(M, 16)).
#define TILE 16

__global__ void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    // TODO: K의 tile마다: thread마다 A의 원소 하나와 B의 원소 하나를 읽고(행렬 밖은 0),
    // 동기화하고, tile끼리 곱해 누적한 뒤, 다시 동기화합니다.
    // 그다음 (row, col)이 C 안이면 C[row * N + col]을 씁니다.
}
