// verdict: WRONG_ANSWER
// The pixel's bytes are read at rgb[p], rgb[p + 1], rgb[p + 2]: the image is interleaved, pixel p
// starts at byte 3p, so every pixel but the first mixes its neighbours' channels.
__global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int p = y * width + x;
        gray[p] = (unsigned char)((77 * rgb[p] + 150 * rgb[p + 1] + 29 * rgb[p + 2]) >> 8);
    }
}
