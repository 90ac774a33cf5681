// verdict: WRONG_ANSWER
// The in-block rank from the seed notes' erratum, threadIdx.x * blockDim.x + threadIdx.y.
// With 16 x 8 blocks it spans 0..247 instead of 0..127, so ranks of neighbouring blocks
// overlap (duplicates) and some ranks never appear (gaps).
__global__ void label_threads(int* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        int block_rank = blockIdx.y * gridDim.x + blockIdx.x;
        int local_rank = threadIdx.x * blockDim.x + threadIdx.y;
        out[y * width + x] = block_rank * (blockDim.x * blockDim.y) + local_rank;
    }
}
