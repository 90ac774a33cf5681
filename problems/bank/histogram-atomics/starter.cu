// hist[v] += number of elements of data[0..n-1] equal to v, for v = 0..255.
// hist arrives zeroed. Launch (fixed): block = 256, grid = min(ceil_div(n, 256), 64):
// use a grid-stride loop.
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[256];
    // TODO: zero the block's histogram, count this block's elements into it, then add it
    // into hist. Many threads update the same bin at the same time.
}
