__global__ void laplacian3d(const float* __restrict__ u, float* __restrict__ out, int nx, int ny, int nz)
{
    // (x, y, z) from the three grid dimensions; element (x, y, z) is u[(z * ny + y) * nx + x].
    // out = sum of the 6 neighbours (0 outside the volume) - 6 * u(x, y, z).
}
