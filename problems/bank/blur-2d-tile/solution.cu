#define TILE 16
#define HALO 1
#define SPAN (TILE + 2 * HALO)  // 18: the tile with its halo

// tile[ly][lx] holds pixel (bx * 16 + lx - 1, by * 16 + ly - 1), 0 outside the image. Its 324 cells
// are loaded by the block's 256 threads in a strided loop, so the halo's edges and corners come in
// with the same code as the centre.
__global__ void blur3x3(const float* __restrict__ img, float* __restrict__ out, int width, int height)
{
    __shared__ float tile[SPAN][SPAN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * TILE - HALO, y0 = blockIdx.y * TILE - HALO;

    for (int k = ty * TILE + tx; k < SPAN * SPAN; k += TILE * TILE) {
        int ly = k / SPAN, lx = k % SPAN;
        int gx = x0 + lx, gy = y0 + ly;
        tile[ly][lx] = (gx >= 0 && gx < width && gy >= 0 && gy < height) ? img[gy * width + gx] : 0.0f;
    }
    __syncthreads();

    int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx) sum += tile[ty + dy][tx + dx];
        out[y * width + x] = sum / 9.0f;
    }
}
