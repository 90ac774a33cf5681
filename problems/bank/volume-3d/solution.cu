// Element (x, y, z) lives at u[(z * ny + y) * nx + x]: x is the fastest index, z the slowest.
__device__ __forceinline__ float at(const float* u, int x, int y, int z, int nx, int ny, int nz)
{
    return (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) ? 0.0f : u[((size_t)z * ny + y) * nx + x];
}

__global__ void laplacian3d(const float* __restrict__ u, float* __restrict__ out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    float c = at(u, x, y, z, nx, ny, nz);
    out[((size_t)z * ny + y) * nx + x] = at(u, x - 1, y, z, nx, ny, nz) + at(u, x + 1, y, z, nx, ny, nz)
                                       + at(u, x, y - 1, z, nx, ny, nz) + at(u, x, y + 1, z, nx, ny, nz)
                                       + at(u, x, y, z - 1, nx, ny, nz) + at(u, x, y, z + 1, nx, ny, nz) - 6.0f * c;
}
