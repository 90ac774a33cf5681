// verdict: RUNTIME_ERROR
// says: trap
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 3) __trap();
    if (i < n) c[i] = a[i] + b[i];
}
