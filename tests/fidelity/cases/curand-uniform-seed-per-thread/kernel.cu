#include <curand_kernel.h>

__global__ void k(float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandState state;
    curand_init(1234ULL + i, 0, 0, &state);
    for (int j = 0; j < 4; ++j)
        y[4 * i + j] = curand_uniform(&state);
}
