// 내 변형: BLOCK = block당 thread {{BLOCK}}개, 배치 {{LAYOUT}}.
// out[blockIdx.x] = 구간 blockIdx.x의 값 {{BLOCK}}개의 합(배치 {{LAYOUT}}에서 값이 어디 있는지는
// 문제 설명을 보세요). 실행 구성(고정): block = {{BLOCK}}, grid = m.
#define BLOCK {{BLOCK}}

__global__ void segment_sum(const float* x, float* out, int m)
{
    __shared__ float s[BLOCK];
    // TODO: 이 block 구간의 원소 threadIdx.x를 읽고, tree reduction, thread 0이 out에 씀.
}
