// verdict: SYNC_ERROR
// No barrier between the tile's write and its transposed read: thread (x, y) reads the element
// that thread (y, x) writes, which may not have happened yet - a shared-memory race.
#define TILE 32
__global__ void transpose(const float* src, float* dst, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = src[y * cols + x];
    int ox = blockIdx.y * TILE + threadIdx.x;
    int oy = blockIdx.x * TILE + threadIdx.y;
    if (ox < rows && oy < cols) dst[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}
