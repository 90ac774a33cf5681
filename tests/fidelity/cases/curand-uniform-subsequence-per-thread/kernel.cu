#include <curand_kernel.h>

__global__ void k(float* y, int n)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    if (id >= n) return;
    curandState state;
    curand_init(1234, id, 0, &state);   // one seed, a subsequence per thread (the CURAND guide's example)
    for (int j = 0; j < 4; ++j)
        y[4 * id + j] = curand_uniform(&state);
}
