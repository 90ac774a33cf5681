#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCK 256

__global__ void normalize_by_max(const int* x, float* y, int* gmax, int n)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ int s[BLOCK];
    // 1. x에 대한 이 block의 최댓값(grid-stride loop, 그다음 shared memory tree); *gmax에 atomicMax.
    // 2. grid의 모든 block을 기다립니다.
    // 3. block의 원소마다 y[i] = (float)x[i] / (float)*gmax.
}
