// verdict: MEMORY_ERROR
// The row stride is the image's height instead of its width: p = y * height + x. On a wide image
// (37 x 5) pixels collide; on a tall one (3 x 50) indices run past the end of both arrays.
__global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int p = y * height + x;
        gray[p] = (unsigned char)((77 * rgb[3 * p] + 150 * rgb[3 * p + 1] + 29 * rgb[3 * p + 2]) >> 8);
    }
}
