// verdict: WRONG_ANSWER
// z is computed with blockDim.x (8) instead of blockDim.z (4): blocks with blockIdx.z > 0 compute
// the wrong planes, and some planes are never written.
__device__ float at(const float* u, int x, int y, int z, int nx, int ny, int nz)
{
    return (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) ? 0.0f : u[(z * ny + y) * nx + x];
}
__global__ void laplacian3d(const float* u, float* out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.x + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    out[(z * ny + y) * nx + x] = at(u, x - 1, y, z, nx, ny, nz) + at(u, x + 1, y, z, nx, ny, nz)
                               + at(u, x, y - 1, z, nx, ny, nz) + at(u, x, y + 1, z, nx, ny, nz)
                               + at(u, x, y, z - 1, nx, ny, nz) + at(u, x, y, z + 1, nx, ny, nz)
                               - 6.0f * at(u, x, y, z, nx, ny, nz);
}
