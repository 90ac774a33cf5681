// verdict: MEMORY_ERROR
// A write 2^27 elements before the output buffer.
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) c[-(1 << 27)] = 1.0f;
    if (i < n) c[i] = a[i] + b[i];
}
