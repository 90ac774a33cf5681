// verdict: TIME_LIMIT
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (a[0] == a[0] || i >= 0) { c[0] += 1.0f; }
}
