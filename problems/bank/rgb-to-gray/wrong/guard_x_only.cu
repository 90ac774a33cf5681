// verdict: MEMORY_ERROR
// Only x is guarded: the bottom row of blocks has threads with y >= height, which read and write
// past the end of both images (5 rows in a 16-row block).
__global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width) {
        int p = y * width + x;
        gray[p] = (unsigned char)((77 * rgb[3 * p] + 150 * rgb[3 * p + 1] + 29 * rgb[3 * p + 2]) >> 8);
    }
}
