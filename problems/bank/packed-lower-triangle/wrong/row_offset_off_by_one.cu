// verdict: WRONG_ANSWER
// Finds the row i correctly but takes it to start at i(i-1)/2 (the strictly lower triangle's
// offset, without the diagonal): j comes out i too large, so each element lands i columns to the
// right (and those past the last column are dropped by the guard).
extern "C" __global__ void unpack_lower(const float* __restrict__ packed, float* __restrict__ A, int n)
{
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= (long long)n * (n + 1) / 2) return;
    long long i = 0;
    while ((i + 1) * i / 2 <= k) ++i;
    --i;
    long long j = k - i * (i - 1) / 2;
    if (i < n && j < n) A[(size_t)i * n + j] = packed[k];
}
