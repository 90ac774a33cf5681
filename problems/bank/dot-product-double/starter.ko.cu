#define BLOCK 256

extern "C" __global__ void dot_double(const float* __restrict__ a, const float* __restrict__ b,
                                      double* result, int n)
{
    __shared__ double s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    // 1. s[t] = a[i] * b[i]를 double로 계산(n 너머는 0).
    // 2. double로 tree reduction.
    // 3. block마다 atomicAdd(result, s[0]) 한 번.
}
