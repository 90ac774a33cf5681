#define BLOCK 256

extern "C" __global__ void log_softmax_rows(const float* __restrict__ z, float* __restrict__ y,
                                            int rows, int cols)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    // 1. The row's max m (block reduction).
    // 2. lse = logf(sum of expf(z - m)) (another block reduction in the same array).
    // 3. y = z - m - lse.
}
