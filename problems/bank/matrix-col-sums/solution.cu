// Thread j owns column j and walks down the rows: at row r the warp's 32 threads read
// A[r * cols + j0 .. j0 + 31], adjacent addresses (coalesced).
extern "C" __global__ void col_sums(const float* __restrict__ A, float* __restrict__ sums,
                                    int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= cols) return;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) acc += A[(size_t)r * cols + j];
    sums[j] = acc;
}
