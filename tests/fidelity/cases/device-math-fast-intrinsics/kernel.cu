#include <math.h>

__global__ void k(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    float* o = y + 8 * i;
    o[0] = __expf(v);
    o[1] = exp10f(v);
    o[2] = __exp10f(v);
    o[3] = __saturatef(v);
    o[4] = __sinf(v);
    o[5] = __cosf(v);
    o[6] = rintf(3.0f * v);
    o[7] = __powf(fabsf(v) + 0.5f, 1.5f);
}
