// verdict: ACCEPTED
// rule: 2 (docs/synchronization.md): exited threads are neither waited for nor counted
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void count_positive(const float* x, int* counts, int n)
{
    cg::thread_block block = cg::this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;                           // the last block's tail has no element
    int total = __syncthreads_count(x[i] > 0.0f); // counts the threads still running
    if (block.thread_rank() == 0) counts[blockIdx.x] = total;
}
