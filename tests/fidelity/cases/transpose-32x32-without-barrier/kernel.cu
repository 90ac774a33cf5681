#define TILE_DIM 32

__global__ void k(const float* a, float* b, int w, int h)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = a[y * w + x];
    // missing: __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < h && y < w) b[y * h + x] = tile[threadIdx.x][threadIdx.y];
}
