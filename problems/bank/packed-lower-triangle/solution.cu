// Packed row-major lower triangle: row i starts at k = i(i+1)/2 and holds i + 1 elements.
// Invert k -> (i, j): i is the largest row with i(i+1)/2 <= k, i.e. floor((sqrt(8k+1) - 1) / 2);
// the rounded square root can be one off either way, so fix it with exact integer tests.
__device__ __forceinline__ void packed_to_ij(long long k, int* i_out, int* j_out)
{
    long long i = (long long)((sqrt(8.0 * (double)k + 1.0) - 1.0) * 0.5);
    while (i * (i + 1) / 2 > k) --i;
    while ((i + 1) * (i + 2) / 2 <= k) ++i;
    *i_out = (int)i;
    *j_out = (int)(k - i * (i + 1) / 2);
}

extern "C" __global__ void unpack_lower(const float* __restrict__ packed, float* __restrict__ A, int n)
{
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long m = (long long)n * (n + 1) / 2;
    if (k >= m) return;
    int i, j;
    packed_to_ij(k, &i, &j);
    A[(size_t)i * n + j] = packed[k];
}
