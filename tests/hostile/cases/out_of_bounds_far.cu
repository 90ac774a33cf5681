// verdict: MEMORY_ERROR
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i + (1 << 28)] = a[0];
}
