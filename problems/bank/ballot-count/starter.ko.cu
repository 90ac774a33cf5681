#define FULL_MASK 0xffffffffu

__global__ void count_above(const float* x, int* count, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // warp 전체가 __ballot_sync로 투표하게 하고(n을 넘는 lane은 false), lane 하나가 켜진 bit 수(__popc)를
    // *count에 더하게 합니다.
}
