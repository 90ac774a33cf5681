#define TILE 32

__global__ void transpose(const float* src, float* dst, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];  // +1: no bank conflicts when a column is read

    // 1. Load the tile of src that this block covers (guard the ragged edges).
    // 2. Wait until the whole tile is loaded.
    // 3. Write it transposed to dst.
}
