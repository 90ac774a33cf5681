// Blocks are numbered row by row over the grid, threads row by row inside a block
// (x varies fastest), and pixels row by row over the image.
__global__ void label_threads(int* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int block_rank = blockIdx.y * gridDim.x + blockIdx.x;
        int local_rank = threadIdx.y * blockDim.x + threadIdx.x;
        out[y * width + x] = block_rank * (blockDim.x * blockDim.y) + local_rank;
    }
}
