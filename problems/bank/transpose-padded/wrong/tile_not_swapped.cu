// verdict: WRONG_ANSWER
// The block indices are swapped on the way out but the tile is read in the order it was written:
// each 32 x 32 tile lands in the right place but untransposed.
#define TILE 32
__global__ void transpose(const float* src, float* dst, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = src[y * cols + x];
    __syncthreads();
    int ox = blockIdx.y * TILE + threadIdx.x;
    int oy = blockIdx.x * TILE + threadIdx.y;
    if (ox < rows && oy < cols) dst[oy * rows + ox] = tile[threadIdx.y][threadIdx.x];
}
