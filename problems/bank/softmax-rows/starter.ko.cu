#define BLOCK 256

__global__ void softmax_rows(const float* z, float* y, int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    // 1. 행의 최댓값 m(각 thread가 열 t, t + 256, ...을 본 뒤 block reduction).
    // 2. 행의 expf(z - m) 합(block reduction 한 번 더).
    // 3. y = expf(z - m) / sum을 씁니다.
}
