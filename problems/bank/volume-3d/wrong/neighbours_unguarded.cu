// verdict: MEMORY_ERROR
// The neighbours are read without the boundary test: at the volume's faces the reads fall outside
// u (x - 1 = -1 at the first element).
__global__ void laplacian3d(const float* u, float* out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    int i = (z * ny + y) * nx + x, plane = nx * ny;
    out[i] = u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] + u[i - plane] + u[i + plane] - 6.0f * u[i];
}
