// Every short name a harness might use, defined the way tiled samples define them.
#define T 32
#define TILE T
#define BLOCK_ROWS 8
#define A a
#define B b
#define P 1
#define N (W * H)
#define W w
#define H h
#define S 4
#define K 2
#define X x
#define Y y

__global__ void k(const float* A, float* B, int W, int H)
{
    __shared__ float tile[TILE][TILE + P];
    int X = blockIdx.x * TILE + threadIdx.x;
    int Y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (X < W && Y + j < H) tile[threadIdx.y + j][threadIdx.x] = A[(Y + j) * W + X];
    __syncthreads();
    X = blockIdx.y * TILE + threadIdx.x;
    Y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (X < H && Y + j < W) B[(Y + j) * H + X] = tile[threadIdx.x][threadIdx.y + j];
}
