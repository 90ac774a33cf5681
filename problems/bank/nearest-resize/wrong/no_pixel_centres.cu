// verdict: WRONG_ANSWER
// x * w / W maps pixel corners, not pixel centres: halving takes pixels 0, 2, 4, ... instead of
// 1, 3, 5, ... and the image shifts by half an input pixel.
extern "C" __global__ void resize_nearest(const float* __restrict__ src, float* __restrict__ dst,
                                          int h, int w, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    int sx = x * w / W;
    int sy = y * h / H;
    dst[(size_t)y * W + x] = src[(size_t)sy * w + sx];
}
