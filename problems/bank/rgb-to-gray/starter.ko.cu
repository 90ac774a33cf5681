#define CHANNELS 3

__global__ void rgb_to_gray(const unsigned char* __restrict__ rgb, unsigned char* __restrict__ gray,
                            int width, int height)
{
    // pixel (x, y): x는 grid의 x 차원에서, y는 y 차원에서 구합니다. 그 R, G, B는
    // rgb[3 * (y * width + x)]의 세 byte입니다; gray = (77 R + 150 G + 29 B) >> 8.
}
