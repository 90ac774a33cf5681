#define THREADS 256

__device__ __forceinline__ float square(float v) { return v * v; }
__device__ __noinline__ float half_of(float v) { return 0.5f * v; }
__device__ inline __attribute__((always_inline)) float plus(float a, float b) { return a + b; }
static __device__ __attribute__((unused)) float unused_helper(float v) { return v; }

__global__ void __launch_bounds__(THREADS, 2) k(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = plus(v + half_of(square(v)), v - half_of(square(v)));   // = v + v
    }
}
