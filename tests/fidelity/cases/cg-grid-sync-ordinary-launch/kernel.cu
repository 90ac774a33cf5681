#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k(const float* x, float* partial, float* total, int n)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[256];
    float v = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) v += x[i];
    s[threadIdx.x] = v;
    block.sync();
    for (int k = 128; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        block.sync();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) t += partial[b];
        total[0] = t;
    }
}
