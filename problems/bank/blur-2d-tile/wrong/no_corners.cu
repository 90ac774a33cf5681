// verdict: WRONG_ANSWER
// The centre and the four halo edges are loaded, the four corner cells are not: the pixels at the
// tile's corners average in whatever the corner cells held.
#define TILE 16
#define SPAN (TILE + 2)
__global__ void blur3x3(const float* img, float* out, int width, int height)
{
    __shared__ float tile[SPAN][SPAN];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    auto load = [&](int gx, int gy) { return (gx >= 0 && gx < width && gy >= 0 && gy < height) ? img[gy * width + gx] : 0.0f; };
    tile[ty + 1][tx + 1] = load(x, y);
    if (tx == 0) tile[ty + 1][0] = load(x - 1, y);
    if (tx == TILE - 1) tile[ty + 1][SPAN - 1] = load(x + 1, y);
    if (ty == 0) tile[0][tx + 1] = load(x, y - 1);
    if (ty == TILE - 1) tile[SPAN - 1][tx + 1] = load(x, y + 1);
    __syncthreads();
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = 0; dy < 3; ++dy)
            for (int dx = 0; dx < 3; ++dx) sum += tile[ty + dy][tx + dx];
        out[y * width + x] = sum / 9.0f;
    }
}
