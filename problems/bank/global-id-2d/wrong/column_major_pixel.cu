// verdict: WRONG_ANSWER
// Stores the image column-major (x * height + y): every pixel index stays in range and
// no two threads collide, but the ranks land in the wrong places.
__global__ void label_threads(int* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int block_rank = blockIdx.y * gridDim.x + blockIdx.x;
        int local_rank = threadIdx.y * blockDim.x + threadIdx.x;
        out[x * height + y] = block_rank * (blockDim.x * blockDim.y) + local_rank;
    }
}
