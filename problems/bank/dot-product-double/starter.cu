#define BLOCK 256

extern "C" __global__ void dot_double(const float* __restrict__ a, const float* __restrict__ b,
                                      double* result, int n)
{
    __shared__ double s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    // 1. s[t] = a[i] * b[i] formed in double (0 past n).
    // 2. Tree reduction in double.
    // 3. One atomicAdd(result, s[0]) per block.
}
