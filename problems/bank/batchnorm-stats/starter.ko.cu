#define BLOCK 256

__global__ void bn_stats(const float* x, float* mean, float* var, int N, int C, int HW)
{
    __shared__ float s[BLOCK];
    int c = blockIdx.x;  // 이 block의 channel: 원소는 x[(n * C + c) * HW + p]
    // 1단계: channel의 평균. 2단계: (x - mean)^2의 평균(biased variance).
}
