#define TILE 16
#define HALO 1
#define SPAN (TILE + 2 * HALO)

__global__ void blur3x3(const float* __restrict__ img, float* __restrict__ out, int width, int height)
{
    __shared__ float tile[SPAN][SPAN];
    // Load the 18 x 18 tile (the block's 16 x 16 pixels and a 1-pixel halo, corners included;
    // 0 outside the image), wait, then out = the mean of the 3 x 3 neighbourhood from the tile.
}
