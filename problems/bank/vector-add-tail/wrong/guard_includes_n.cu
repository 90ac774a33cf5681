// verdict: MEMORY_ERROR
// launch: block=256 grid=(n + 255) / 256
// Off by one in the guard: i == n is one element past the end of every array.
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) {
        c[i] = a[i] + b[i];
    }
}
