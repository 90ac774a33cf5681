// verdict: WRONG_ANSWER
// Products and partial sums in float, converted to double only for the atomic: each ~1e6 product
// is rounded to float (error up to 0.03) and the float tree over 256 of them loses more, so the
// total is off by units where the double version is off by ~1e-7.
#define BLOCK 256
extern "C" __global__ void dot_double(const float* __restrict__ a, const float* __restrict__ b,
                                      double* result, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(result, (double)s[0]);
}
