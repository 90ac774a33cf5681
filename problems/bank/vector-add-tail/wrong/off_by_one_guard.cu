// verdict: WRONG_ANSWER
// launch: block=256 grid=(n + 255) / 256
// Off by one the other way: `i < n - 1` never writes the last element, c[n - 1].
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) {
        c[i] = a[i] + b[i];
    }
}
