// verdict: MEMORY_ERROR
// Guards x but not y: threads of the bottom blocks below the image (y >= height) write
// past the end of `out`. Every in-range write is right, so only the memory check sees it.
__global__ void label_threads(int* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width) {
        int block_rank = blockIdx.y * gridDim.x + blockIdx.x;
        int local_rank = threadIdx.y * blockDim.x + threadIdx.x;
        out[y * width + x] = block_rank * (blockDim.x * blockDim.y) + local_rank;
    }
}
