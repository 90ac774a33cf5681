// counts[blockIdx.x] = 이 block의 원소(i < n) 중 x[i] > 0인 원소의 수.
// 실행 구성(고정): block = 256, grid = ceil_div(n, 256).
__global__ void count_positive(const float* x, int* counts, int n)
{
    // TODO: block의 모든 thread가 도달하는 __syncthreads_count(...) 하나.
}
