// verdict: MEMORY_ERROR
// The tile is loaded without the image test: the halo of the top-left tile reads img[-width - 1],
// before the start of the image, and the last tiles read past its end.
#define TILE 16
#define SPAN (TILE + 2)
__global__ void blur3x3(const float* img, float* out, int width, int height)
{
    __shared__ float tile[SPAN][SPAN];
    int tx = threadIdx.x, ty = threadIdx.y, x0 = blockIdx.x * TILE - 1, y0 = blockIdx.y * TILE - 1;
    for (int k = ty * TILE + tx; k < SPAN * SPAN; k += TILE * TILE) {
        int ly = k / SPAN, lx = k % SPAN;
        tile[ly][lx] = img[(y0 + ly) * width + x0 + lx];
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
