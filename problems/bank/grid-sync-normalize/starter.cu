#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCK 256

__global__ void normalize_by_max(const int* x, float* y, int* gmax, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[BLOCK];
    // 1. This block's max over x (grid-stride loop, then a shared-memory tree); atomicMax into *gmax.
    // 2. Wait for every block of the grid.
    // 3. y[i] = (float)x[i] / (float)*gmax for the block's elements.
}
