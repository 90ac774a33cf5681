#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCK 256

// Phase 1: each block's max (grid-stride over x, then a tree in shared memory), one atomicMax per
// block into *gmax. grid.sync(): every block's atomicMax is done and visible. Phase 2: divide.
__global__ void normalize_by_max(const int* x, float* y, int* gmax, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int stride = gridDim.x * blockDim.x;

    int m = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) m = max(m, x[i]);
    s[t] = m;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
        if (t < half) s[t] = max(s[t], s[t + half]);
        __syncthreads();
    }
    if (t == 0) atomicMax(gmax, s[0]);

    grid.sync();  // needs the cooperative launch (cudaLaunchCooperativeKernel)

    float top = (float)*gmax;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) y[i] = (float)x[i] / top;
}
