extern "C" __global__ void resize_nearest(const float* __restrict__ src, float* __restrict__ dst,
                                          int h, int w, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    // (x, y)를 입력 pixel 중심으로 옮기고, 반올림해(정확히 .5는 올림) 복사합니다.
}
