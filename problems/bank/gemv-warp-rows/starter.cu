#define WARP 32
#define FULL_MASK 0xffffffffu

extern "C" __global__ void gemv_warp(const float* __restrict__ A, const float* __restrict__ x,
                                     float* __restrict__ y, int rows, int cols)
{
    // Row = this warp's index in the grid (4 warps per block). Each lane sums every 32nd product of
    // the row, starting at its lane; the warp then adds its 32 sums with __shfl_down_sync.
}
