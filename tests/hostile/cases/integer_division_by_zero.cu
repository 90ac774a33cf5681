// verdict: RUNTIME_ERROR
// An integer division by zero traps on the CPU.
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile int zero = 0;
    if (i < n) c[i] = a[i] + b[i] + (float)(n / zero);
}
