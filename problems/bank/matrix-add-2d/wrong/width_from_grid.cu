// verdict: MEMORY_ERROR
// The seed notes' erratum: the row length taken from the launch. With a ragged right
// edge gridDim.x * blockDim.x > width, so rows are placed too far apart: elements are
// skipped and the last rows land past the end of the arrays.
__global__ void matrix_add(const float* A, const float* B, float* C, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int idx = y * (gridDim.x * blockDim.x) + x;
        C[idx] = A[idx] + B[idx];
    }
}
