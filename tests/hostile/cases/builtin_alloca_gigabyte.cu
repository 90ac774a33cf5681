// verdict: RUNTIME_ERROR MEMORY_ERROR
// __builtin_alloca of 1 GiB: far past a thread's stack.
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    volatile char* p = (volatile char*)__builtin_alloca(1u << 30);
    p[0] = 1;
    if (i < n) c[i] = a[i] + b[i] + p[0];
}
