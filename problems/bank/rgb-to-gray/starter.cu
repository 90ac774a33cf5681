#define CHANNELS 3

__global__ void rgb_to_gray(const unsigned char* __restrict__ rgb, unsigned char* __restrict__ gray,
                            int width, int height)
{
    // Pixel (x, y): x from the x dimensions of the grid, y from the y dimensions. Its R, G, B are
    // the three bytes at rgb[3 * (y * width + x)]; gray = (77 R + 150 G + 29 B) >> 8.
}
