// out is a height x width image stored row-major: pixel (x, y) is out[y * width + x].
// Launch (fixed): block = (16, 8), grid = (ceil_div(width, 16), ceil_div(height, 8)).
// The thread covering pixel (x, y) writes its rank in the whole grid there.
__global__ void label_threads(int* out, int width, int height)
{
    // TODO: pixel coordinates, rank of the block in the grid, rank of the thread in
    // its block, and a guard for threads that cover no pixel.
}
