// MATLAB nearest: the input coordinate of output pixel x' is x = (x' + 0.5) * w / W - 0.5, and an
// exact .5 rounds up: floor(x + 0.5) = floor((2x' + 1) * w / (2W)), exact in integers.
__device__ __forceinline__ int nearest_index(int out, int in_n, int out_n)
{
    int i = (int)(((long long)(2 * out + 1) * in_n) / (2LL * out_n));
    return min(i, in_n - 1);
}

extern "C" __global__ void resize_nearest(const float* __restrict__ src, float* __restrict__ dst,
                                          int h, int w, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    int sx = nearest_index(x, w, W);
    int sy = nearest_index(y, h, H);
    dst[(size_t)y * W + x] = src[(size_t)sy * w + sx];
}
