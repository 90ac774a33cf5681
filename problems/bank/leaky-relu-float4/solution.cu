#define ALPHA 0.1f

__device__ __forceinline__ float leaky(float v) { return v > 0.0f ? v : ALPHA * v; }

// Thread i handles the float4 at elements 4i .. 4i+3 (one 16-byte load and store), for i < n / 4;
// the first n % 4 threads also handle one element of the tail 4 * (n / 4) .. n - 1.
__global__ void leaky_relu4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int vectors = n / 4;
    if (i < vectors) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        v.x = leaky(v.x);
        v.y = leaky(v.y);
        v.z = leaky(v.z);
        v.w = leaky(v.w);
        reinterpret_cast<float4*>(y)[i] = v;
    }
    int tail = n - 4 * vectors;
    if (i < tail) {
        int j = 4 * vectors + i;
        y[j] = leaky(x[j]);
    }
}
