#define WARP 32
#define FULL_MASK 0xffffffffu

extern "C" __global__ void gemv_warp(const float* __restrict__ A, const float* __restrict__ x,
                                     float* __restrict__ y, int rows, int cols)
{
    // 행 = grid에서 이 warp의 번호(block당 warp 4개). 각 lane은 자기 lane 번호에서 시작해 행의 곱을
    // 32개마다 하나씩 더하고, warp는 그 32개의 합을 __shfl_down_sync로 더합니다.
}
