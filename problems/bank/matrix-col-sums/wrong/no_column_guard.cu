// verdict: MEMORY_ERROR
// No `j < cols` guard: the last block's threads past the last column read past the end of the last
// row and write past the end of sums.
extern "C" __global__ void col_sums(const float* __restrict__ A, float* __restrict__ sums,
                                    int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) acc += A[(size_t)r * cols + j];
    sums[j] = acc;
}
