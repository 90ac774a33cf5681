#define TILE 16
#define HALO 1
#define SPAN (TILE + 2 * HALO)

__global__ void blur3x3(const float* __restrict__ img, float* __restrict__ out, int width, int height)
{
    __shared__ float tile[SPAN][SPAN];
    // 18 x 18 tile(block의 16 x 16 pixel과 모서리를 포함한 1 pixel 폭 halo, 이미지 밖은 0)을
    // 읽고 기다린 뒤, out = tile에서 구한 3 x 3 이웃의 평균.
}
