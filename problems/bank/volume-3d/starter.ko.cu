__global__ void laplacian3d(const float* __restrict__ u, float* __restrict__ out, int nx, int ny, int nz)
{
    // (x, y, z)는 grid의 세 차원에서 구합니다; 원소 (x, y, z)는 u[(z * ny + y) * nx + x].
    // out = 이웃 6개의 합(volume 밖은 0) - 6 * u(x, y, z).
}
