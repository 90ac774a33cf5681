#define WARP 32
#define FULL_MASK 0xffffffffu

extern "C" __global__ void sum_shfl(const float* x, float* total, int n)
{
    __shared__ float warp_sums[WARP];
    // 1. 각 warp가 자기 값 32개를 __shfl_down_sync로 더합니다(n을 넘는 thread는 0).
    // 2. 각 warp의 lane 0이 warp 합을 warp_sums에 저장하고, 모든 warp를 기다립니다.
    // 3. warp 0이 warp_sums를 같은 방법으로 더하고, 그 lane 0이 block의 합을 *total에 더합니다.
}
