// verdict: MEMORY_ERROR
// No guard on the row: when rows is not a multiple of 4, the last block's extra warps read rows of A
// past its end and write y past its end.
#define WARP 32
#define FULL_MASK 0xffffffffu
extern "C" __global__ void gemv_warp(const float* A, const float* x, float* y, int rows, int cols)
{
    int lane = threadIdx.x % WARP, row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP;
    float sum = 0.0f;
    for (int c = lane; c < cols; c += WARP) sum += A[(size_t)row * cols + c] * x[c];
    for (int offset = WARP / 2; offset > 0; offset >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0) y[row] = sum;
}
