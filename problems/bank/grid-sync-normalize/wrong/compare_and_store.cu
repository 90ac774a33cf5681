// verdict: SYNC_ERROR
// gpu-verdict: WRONG_ANSWER (the lost update is in global memory, which racecheck does not see)
// rule: 14 (docs/synchronization.md, the barrier rule's table)
// `if (s[0] > *gmax) *gmax = s[0];` is a read-modify-write that other blocks interleave with: two
// blocks both read the old max and the smaller one may be stored last (a lost update). atomicMax
// does the compare and the store as one operation.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define BLOCK 256
__global__ void normalize_by_max(const int* x, float* y, int* gmax, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[BLOCK];
    int t = threadIdx.x, stride = gridDim.x * blockDim.x, m = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) m = max(m, x[i]);
    s[t] = m;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
        if (t < half) s[t] = max(s[t], s[t + half]);
        __syncthreads();
    }
    if (t == 0 && s[0] > *gmax) *gmax = s[0];
    grid.sync();
    float top = (float)*gmax;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) y[i] = (float)x[i] / top;
}
