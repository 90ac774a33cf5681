#define ELEMS (65536 / 4)

__global__ void k(const float* x, float* y, int n)
{
    extern __shared__ float buf[];
    int base = blockIdx.x * ELEMS;
    for (int j = threadIdx.x; j < ELEMS; j += blockDim.x)
        buf[j] = base + j < n ? x[base + j] : 0.0f;
    __syncthreads();
    for (int j = threadIdx.x; j < ELEMS; j += blockDim.x)
        if (base + j < n) y[base + j] = buf[ELEMS - 1 - j];
}
