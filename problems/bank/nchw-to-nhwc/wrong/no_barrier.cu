// verdict: SYNC_ERROR
// No barrier between the tile's load and its transposed read: thread (tx, ty) reads tile[tx][ty],
// which thread (ty, tx) - usually in another warp - may not have written yet.
#define TILE 16
extern "C" __global__ void nchw_to_nhwc(const float* __restrict__ src, float* __restrict__ dst,
                                        int N, int C, int H, int W)
{
    __shared__ float tile[TILE][TILE + 1];
    int HW = H * W;
    int n = blockIdx.z;
    int p0 = blockIdx.x * TILE, c0 = blockIdx.y * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;
    const float* s = src + (size_t)n * C * HW;
    float* d = dst + (size_t)n * HW * C;
    int c = c0 + ty, p = p0 + tx;
    if (c < C && p < HW) tile[ty][tx] = s[(size_t)c * HW + p];
    p = p0 + ty;
    c = c0 + tx;
    if (p < HW && c < C) d[(size_t)p * C + c] = tile[tx][ty];
}
