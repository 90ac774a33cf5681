#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCK 256
#define WARPS (BLOCK / 32)

__global__ void k(const float* x, float* y, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float warp_sums[WARPS];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    for (int off = warp.size() / 2; off > 0; off /= 2)
        v += warp.shfl_down(v, off);
    if (warp.thread_rank() == 0) warp_sums[threadIdx.x / 32] = v;
    block.sync();
    if (threadIdx.x < 32) {
        v = warp.thread_rank() < WARPS ? warp_sums[warp.thread_rank()] : 0.0f;
        for (int off = 16; off > 0; off /= 2)
            v += warp.shfl_down(v, off);
        if (warp.thread_rank() == 0) y[blockIdx.x] = v;
    }
}
