// verdict: COMPILE_ERROR RUNTIME_ERROR MEMORY_ERROR
// A 4 GiB thread_local array: each worker thread would need it.
thread_local char big[1ull << 32];
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    big[i] = 1;
    if (i < n) c[i] = a[i] + b[i] + big[0];
}
