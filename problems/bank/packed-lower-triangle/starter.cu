extern "C" __global__ void unpack_lower(const float* __restrict__ packed, float* __restrict__ A, int n)
{
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    // Find (i, j) with k = i(i+1)/2 + j and 0 <= j <= i; write A[i * n + j] = packed[k].
}
