// verdict: MEMORY_ERROR
// A write through a null pointer.
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* p = nullptr;
    if (i == 0) p[7] = 1.0f;
    if (i < n) c[i] = a[i] + b[i];
}
