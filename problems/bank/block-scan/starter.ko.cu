#define BLOCK 256

__global__ void block_scan(const float* x, float* out, int n)
{
    __shared__ float buf[2][BLOCK];  // 한 buffer에서 읽고 다른 buffer에 쓴 뒤 맞바꿈
    // x를 buf[0]에 읽고(n 너머는 0), offset = 1, 2, 4, ..., 128마다:
    //   새 값[t] = 이전 값[t] + (t >= offset ? 이전 값[t - offset] : 0)
    // block의 각 원소의 inclusive prefix를 out에 씁니다.
}
