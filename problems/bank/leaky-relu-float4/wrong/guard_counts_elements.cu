// verdict: MEMORY_ERROR
// The guard asks whether the vector's first element exists (4i < n), not the whole vector: the
// last float4 reads and writes up to 3 floats past the end of x and y.
#define ALPHA 0.1f
__device__ float leaky(float v) { return v > 0.0f ? v : ALPHA * v; }
__global__ void leaky_relu4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (4 * i < n) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        v.x = leaky(v.x); v.y = leaky(v.y); v.z = leaky(v.z); v.w = leaky(v.w);
        reinterpret_cast<float4*>(y)[i] = v;
    }
}
