// 0 <= i < n에 대해 y[i] = alpha * x[i].
// 실행 구성(고정): block = 256, grid = min(ceil_div(n, 256), 8) -- n이 얼마든 thread는
// 최대 2048개입니다. grid-stride loop를 쓰세요.
__global__ void scale(const float* x, float* y, float alpha, int n)
{
    // TODO: 여기에 작성하세요.
}
