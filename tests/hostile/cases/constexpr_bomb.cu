// verdict: COMPILE_ERROR
// A constexpr loop of 10^12 steps: the compiler's own limit (or the compile limit) stops it.
__host__ __device__ constexpr long spin() { long x = 0; for (long k = 0; k < 1000000000000L; ++k) x += k; return x; }
constexpr long spun = spin();
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + (float)(spun & 0);
}
