extern "C" __global__ void col_sums(const float* __restrict__ A, float* __restrict__ sums,
                                    int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    // 열 j를 모든 행에 걸쳐 더합니다. 이웃한 thread가 이웃한 주소를 읽게 하세요.
}
