// verdict: MEMORY_ERROR
// The load is not guarded: the ragged tiles read channels past C and pixels past H * W; for the
// last image that is past the end of src.
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
    tile[ty][tx] = s[(size_t)c * HW + p];
    __syncthreads();
    p = p0 + ty;
    c = c0 + tx;
    if (p < HW && c < C) d[(size_t)p * C + c] = tile[tx][ty];
}
