#define BLOCK 256

// Products in double (exact), a double tree per block, one atomicAdd(double*) per block.
extern "C" __global__ void dot_double(const float* __restrict__ a, const float* __restrict__ b,
                                      double* result, int n)
{
    __shared__ double s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;

    s[t] = (i < n) ? (double)a[i] * (double)b[i] : 0.0;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) atomicAdd(result, s[0]);
}
