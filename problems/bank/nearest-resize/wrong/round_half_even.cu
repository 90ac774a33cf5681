// verdict: WRONG_ANSWER
// rintf rounds half to even (like NumPy's np.round): when a width is halved every coordinate is an
// exact .5 (0.5, 2.5, ...) and rintf picks 0, 2, ... where MATLAB picks 1, 3, ...
extern "C" __global__ void resize_nearest(const float* __restrict__ src, float* __restrict__ dst,
                                          int h, int w, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    float fx = (x + 0.5f) * w / W - 0.5f;
    float fy = (y + 0.5f) * h / H - 0.5f;
    int sx = min(max((int)rintf(fx), 0), w - 1);
    int sy = min(max((int)rintf(fy), 0), h - 1);
    dst[(size_t)y * W + x] = src[(size_t)sy * w + sx];
}
