// verdict: WRONG_ANSWER
// The row is the warp's index in its block only: every block computes rows 0-3 again, and rows 4
// and up are never written.
#define WARP 32
#define FULL_MASK 0xffffffffu
extern "C" __global__ void gemv_warp(const float* A, const float* x, float* y, int rows, int cols)
{
    int lane = threadIdx.x % WARP, row = threadIdx.x / WARP;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int c = lane; c < cols; c += WARP) sum += A[(size_t)row * cols + c] * x[c];
    for (int offset = WARP / 2; offset > 0; offset >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0) y[row] = sum;
}
