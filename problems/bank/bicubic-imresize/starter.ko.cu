__device__ __forceinline__ float cubic(float v)
{
    // Keys의 cubic 함수, a = -0.5.
    return 0.0f;
}

extern "C" __global__ void imresize_bicubic(const float* __restrict__ src, float* __restrict__ dst,
                                            int h, int w, int H, int W)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    // 차원마다: 입력 좌표, 커널 폭(축소할 때는 antialias), tap들,
    // 그 가중치(정규화), symmetric padding. 그다음 tap들에 대한 가중합.
}
