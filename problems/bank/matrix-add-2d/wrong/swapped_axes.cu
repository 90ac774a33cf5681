// verdict: WRONG_ANSWER
// Takes the column from the grid's y axis and the row from its x axis. The guard keeps
// every access in bounds, but the grid only covers ceil_div(height, 16) * 16 columns and
// ceil_div(width, 16) * 16 rows, so on a wide matrix the right-hand columns are never written.
__global__ void matrix_add(const float* A, const float* B, float* C, int width, int height)
{
    int x = blockIdx.y * blockDim.y + threadIdx.y;
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width && y < height) {
        int idx = y * width + x;
        C[idx] = A[idx] + B[idx];
    }
}
