#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Warp-aggregated atomic increment (NVIDIA's "CUDA Pro Tip"): one atomicAdd per active group.
__device__ int atomic_agg_inc(int* counter)
{
    cg::coalesced_group g = cg::coalesced_threads();
    int prev;
    if (g.thread_rank() == 0) prev = atomicAdd(counter, g.size());
    prev = g.shfl(prev, 0);
    return prev + g.thread_rank();
}

__global__ void k(const float* x, int* count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.0f) atomic_agg_inc(count);
}
