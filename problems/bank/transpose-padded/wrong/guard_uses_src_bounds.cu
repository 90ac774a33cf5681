// verdict: SYNC_ERROR
// gpu-verdict: WRONG_ANSWER (memcheck runs on the smallest test only, where the stray stores stay inside dst; the tall test's overflow lands in slack)
// The write is guarded with src's bounds (x < cols, y < rows) instead of dst's: on a tile that is
// ragged in one direction only, threads that should stay idle store into dst anyway - two threads
// write the same dst element with different values (a race, the verdict), and on a tall matrix the
// stores run past the end of dst.
#define TILE 32
__global__ void transpose(const float* src, float* dst, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = src[y * cols + x];
    __syncthreads();
    int ox = blockIdx.y * TILE + threadIdx.x;
    int oy = blockIdx.x * TILE + threadIdx.y;
    if (x < cols && y < rows) dst[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}
