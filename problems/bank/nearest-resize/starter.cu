extern "C" __global__ void resize_nearest(const float* __restrict__ src, float* __restrict__ dst,
                                          int h, int w, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    // Map (x, y) to the input pixel centre, round it (an exact .5 rounds up), copy.
}
