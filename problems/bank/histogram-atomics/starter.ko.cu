// v = 0..255마다 hist[v] += data[0..n-1]에서 v와 같은 원소의 수.
// hist는 0으로 채워져 옵니다. 실행 구성(고정): block = 256, grid = min(ceil_div(n, 256), 64):
// grid-stride loop를 쓰세요.
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[256];
    // TODO: block의 histogram을 0으로 채우고, 이 block의 원소를 거기에 센 뒤, hist에
    // 더합니다. 여러 thread가 같은 bin을 동시에 갱신합니다.
}
