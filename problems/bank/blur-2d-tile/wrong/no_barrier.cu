// verdict: SYNC_ERROR
// No barrier after the loads: a thread averages tile cells its neighbours (and the strided loop's
// other threads) may not have loaded yet - a shared-memory race.
#define TILE 16
#define SPAN (TILE + 2)
__global__ void blur3x3(const float* img, float* out, int width, int height)
{
    __shared__ float tile[SPAN][SPAN];
    int tx = threadIdx.x, ty = threadIdx.y, x0 = blockIdx.x * TILE - 1, y0 = blockIdx.y * TILE - 1;
    for (int k = ty * TILE + tx; k < SPAN * SPAN; k += TILE * TILE) {
        int ly = k / SPAN, lx = k % SPAN, gx = x0 + lx, gy = y0 + ly;
        tile[ly][lx] = (gx >= 0 && gx < width && gy >= 0 && gy < height) ? img[gy * width + gx] : 0.0f;
    }
    int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx) sum += tile[ty + dy][tx + dx];
        out[y * width + x] = sum / 9.0f;
    }
}
