// verdict: RUNTIME_ERROR TIME_LIMIT
// Recursion without end overflows a thread's stack.
__device__ int deep(int k) { volatile int pad[64]; pad[k & 63] = k; return deep(k + 1) + pad[(k + 1) & 63]; }
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + (float)deep(0);
}
