#define BLOCK 256

__global__ void softmax_rows(const float* z, float* y, int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    // 1. The row's max m (each thread over columns t, t + 256, ..., then a block reduction).
    // 2. The row's sum of expf(z - m) (another block reduction).
    // 3. y = expf(z - m) / sum.
}
