#define TILE 16
#define COARSEN 2

extern "C" __global__ void coarsened_matmul(const float* __restrict__ A, const float* __restrict__ B,
                                            float* __restrict__ C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[COARSEN][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    // This block computes rows blockIdx.y * 16 .. + 15 and columns blockIdx.x * 32 .. + 31.
    // Thread (tx, ty) computes two outputs, 16 columns apart.
}
