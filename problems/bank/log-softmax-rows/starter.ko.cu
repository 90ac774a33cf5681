#define BLOCK 256

extern "C" __global__ void log_softmax_rows(const float* __restrict__ z, float* __restrict__ y,
                                            int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    // 1. 행의 최댓값 m(block reduction).
    // 2. lse = logf(expf(z - m)의 합)(같은 배열로 block reduction 한 번 더).
    // 3. y = z - m - lse를 씁니다.
}
