#define TILE 16

extern "C" __global__ void nchw_to_nhwc(const float* __restrict__ src, float* __restrict__ dst,
                                        int N, int C, int H, int W)
{
    __shared__ float tile[TILE][TILE + 1];
    int HW = H * W;
    int n = blockIdx.z;
    int p0 = blockIdx.x * TILE, c0 = blockIdx.y * TILE;
    // 1. Load channels c0 .. c0+15, pixels p0 .. p0+15 of image n (threadIdx.x along the pixels).
    // 2. Barrier.
    // 3. Write them to dst with threadIdx.x along the channels.
}
