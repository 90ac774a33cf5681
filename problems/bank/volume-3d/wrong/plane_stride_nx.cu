// verdict: WRONG_ANSWER
// The plane stride is nx instead of nx * ny: element (x, y, z) is read and written at
// (z + y) * nx + x, so planes overlap each other.
__device__ float at(const float* u, int x, int y, int z, int nx, int ny, int nz)
{
    return (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) ? 0.0f : u[(z + y) * nx + x];
}
__global__ void laplacian3d(const float* u, float* out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    out[(z + y) * nx + x] = at(u, x - 1, y, z, nx, ny, nz) + at(u, x + 1, y, z, nx, ny, nz)
                          + at(u, x, y - 1, z, nx, ny, nz) + at(u, x, y + 1, z, nx, ny, nz)
                          + at(u, x, y, z - 1, nx, ny, nz) + at(u, x, y, z + 1, nx, ny, nz)
                          - 6.0f * at(u, x, y, z, nx, ny, nz);
}
