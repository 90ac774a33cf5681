// verdict: MEMORY_ERROR
// Guards the column only: threads of the bottom row of blocks below the matrix read and
// write past the end of A, B and C.
__global__ void matrix_add(const float* A, const float* B, float* C, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width) {
        int idx = y * width + x;
        C[idx] = A[idx] + B[idx];
    }
}
