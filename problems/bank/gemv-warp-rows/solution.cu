#define WARP 32
#define FULL_MASK 0xffffffffu

// Warp w of block b handles row 4b + w. Lane l adds A[row][l], A[row][l + 32], ... (a warp reads 32
// consecutive floats per step: coalesced), then the warp sums its 32 partial sums with shuffles.
extern "C" __global__ void gemv_warp(const float* __restrict__ A, const float* __restrict__ x,
                                     float* __restrict__ y, int rows, int cols)
{
    int lane = threadIdx.x % WARP;
    int row = blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP;
    if (row >= rows) return;  // a whole warp leaves together: its shuffles stay full
    const float* a = A + (size_t)row * cols;
    float sum = 0.0f;
    for (int c = lane; c < cols; c += WARP) sum += a[c] * x[c];
    for (int offset = WARP / 2; offset > 0; offset >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0) y[row] = sum;
}
