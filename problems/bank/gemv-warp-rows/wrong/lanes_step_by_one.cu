// verdict: WRONG_ANSWER
// Each lane starts at its own column but steps by 1: lane l adds columns l .. cols - 1, so column c
// is counted c + 1 times (up to 32).
#define WARP 32
#define FULL_MASK 0xffffffffu
extern "C" __global__ void gemv_warp(const float* A, const float* x, float* y, int rows, int cols)
{
    int lane = threadIdx.x % WARP, row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int c = lane; c < cols; c += 1) sum += A[(size_t)row * cols + c] * x[c];
    for (int offset = WARP / 2; offset > 0; offset >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0) y[row] = sum;
}
