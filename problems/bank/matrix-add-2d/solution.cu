// x is the column, y the row. The row length is the matrix's width, a parameter: the
// grid is rounded up to whole blocks, so gridDim.x * blockDim.x may be larger.
__global__ void matrix_add(const float* A, const float* B, float* C, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int idx = y * width + x;
        C[idx] = A[idx] + B[idx];
    }
}
