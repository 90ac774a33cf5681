// out[i] = x[i] + x[i의 오른쪽 이웃]. 이웃은 i의 block이 맡은 원소 안에서
// 한 바퀴 돕니다. 각 원소는 global memory에서 한 번만 읽으세요: block의 구간을
// shared memory에 올려 두고 이웃은 거기서 읽습니다.
// 실행 구성(고정): block = 256, grid = ceil_div(n, 256).
__global__ void neighbour_sum(const float* x, float* out, int n)
{
    __shared__ float s[256];
    // TODO: 여기에 작성하세요.
}
