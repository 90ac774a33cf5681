extern "C" __global__ void unpack_lower(const float* __restrict__ packed, float* __restrict__ A, int n)
{
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    // k = i(i+1)/2 + j이고 0 <= j <= i인 (i, j)를 찾아 A[i * n + j] = packed[k]를 씁니다.
}
