#define TILE 16
#define COARSEN 2

extern "C" __global__ void coarsened_matmul(const float* __restrict__ A, const float* __restrict__ B,
                                            float* __restrict__ C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[COARSEN][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    // 이 block은 행 blockIdx.y * 16 .. + 15, 열 blockIdx.x * 32 .. + 31을 계산합니다.
    // thread (tx, ty)는 16열 떨어진 출력 두 개를 계산합니다.
}
