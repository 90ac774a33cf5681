// verdict: MEMORY_ERROR
// The float4 pointer already steps 16 bytes per index: indexing it with 4i skips three vectors out
// of four and runs four times past the end of the arrays.
#define ALPHA 0.1f
__device__ float leaky(float v) { return v > 0.0f ? v : ALPHA * v; }
__global__ void leaky_relu4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int vectors = n / 4;
    if (i < vectors) {
        float4 v = reinterpret_cast<const float4*>(x)[4 * i];
        v.x = leaky(v.x); v.y = leaky(v.y); v.z = leaky(v.z); v.w = leaky(v.w);
        reinterpret_cast<float4*>(y)[4 * i] = v;
    }
    int tail = n - 4 * vectors;
    if (i < tail) y[4 * vectors + i] = leaky(x[4 * vectors + i]);
}
