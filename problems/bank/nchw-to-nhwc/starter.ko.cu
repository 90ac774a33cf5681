#define TILE 16

extern "C" __global__ void nchw_to_nhwc(const float* __restrict__ src, float* __restrict__ dst,
                                        int N, int C, int H, int W)
{
    __shared__ float tile[TILE][TILE + 1];
    int HW = H * W;
    int n = blockIdx.z;
    int p0 = blockIdx.x * TILE, c0 = blockIdx.y * TILE;
    // 1. 이미지 n의 channel c0 .. c0+15, pixel p0 .. p0+15를 읽습니다(threadIdx.x는 pixel 방향).
    // 2. barrier로 동기화합니다.
    // 3. threadIdx.x를 channel 방향으로 하여 dst에 씁니다.
}
