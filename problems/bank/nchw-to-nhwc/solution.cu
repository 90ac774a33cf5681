#define TILE 16

// Image n = blockIdx.z. In NCHW it is a C x HW matrix (row c, column p = h * W + w); in NHWC it
// is the HW x C matrix: dst[(n * HW + p) * C + c] = src[(n * C + c) * HW + p].
// The block reads a 16 x 16 tile along p (coalesced), then writes it transposed along c.
extern "C" __global__ void nchw_to_nhwc(const float* __restrict__ src, float* __restrict__ dst,
                                        int N, int C, int H, int W)
{
    __shared__ float tile[TILE][TILE + 1];  // +1: the column read hits 16 different banks
    int HW = H * W;
    int n = blockIdx.z;
    int p0 = blockIdx.x * TILE, c0 = blockIdx.y * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;
    const float* s = src + (size_t)n * C * HW;
    float* d = dst + (size_t)n * HW * C;

    int c = c0 + ty, p = p0 + tx;
    if (c < C && p < HW) tile[ty][tx] = s[(size_t)c * HW + p];
    __syncthreads();

    p = p0 + ty;
    c = c0 + tx;
    if (p < HW && c < C) d[(size_t)p * C + c] = tile[tx][ty];
}
