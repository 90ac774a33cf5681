#include <cuda_fp16.h>

__global__ void k(const float* a, const float* b, const float* c, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half ha = __float2half(a[i]), hb = __float2half(b[i]), hc = __float2half(c[i]);
        y[i] = __half2float(__hadd(ha, __hmul(hb, hc)));
    }
}
