#define TILE 32

// Block (bx, by) reads the 32 x 32 tile of src at rows by*32.., columns bx*32.. (coalesced along a
// row), and writes it transposed to dst at rows bx*32.., columns by*32.. (coalesced again, because
// the transposition happens in shared memory). The +1 column puts tile[0][c], tile[1][c], ... in
// 32 different banks, so the column read of the second phase has no bank conflicts.
__global__ void transpose(const float* src, float* dst, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    int x = blockIdx.x * TILE + threadIdx.x;  // column of src
    int y = blockIdx.y * TILE + threadIdx.y;  // row of src
    if (x < cols && y < rows) {
        tile[threadIdx.y][threadIdx.x] = src[y * cols + x];
    }
    __syncthreads();

    int ox = blockIdx.y * TILE + threadIdx.x;  // column of dst = row of src
    int oy = blockIdx.x * TILE + threadIdx.y;  // row of dst = column of src
    if (ox < rows && oy < cols) {
        dst[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
    }
}
