// launch: block=256 grid=(n + 255) / 256
// One thread per element. The last block is only partly used when n is not a
// multiple of 256, so every thread checks its index before touching memory.
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
