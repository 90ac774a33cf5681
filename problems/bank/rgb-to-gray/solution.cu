#define CHANNELS 3

// Thread (x, y) of the 2-D grid converts pixel (x, y): row y, column x. Pixel p = y * width + x
// starts at byte 3p of the interleaved image (R, G, B).
__global__ void rgb_to_gray(const unsigned char* __restrict__ rgb, unsigned char* __restrict__ gray,
                            int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int p = y * width + x;
        const unsigned char* px = rgb + CHANNELS * p;
        gray[p] = (unsigned char)((77 * px[0] + 150 * px[1] + 29 * px[2]) >> 8);
    }
}
