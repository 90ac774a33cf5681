// out[blockIdx.x] = n 미만인 (최대) 256개 원소 x[256 * blockIdx.x + t], t < 256의 합.
// 실행 구성(고정): block = 256, grid = ceil_div(n, 256).
__global__ void block_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    // TODO: 읽기(끝 너머는 0), shared memory에서 tree reduction, thread 0이 결과를 씀.
}
