// verdict: WRONG_ANSWER
// Only whole float4s are written: when n is not a multiple of 4, the last n % 4 elements of y are
// never written.
#define ALPHA 0.1f
__device__ float leaky(float v) { return v > 0.0f ? v : ALPHA * v; }
__global__ void leaky_relu4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        v.x = leaky(v.x); v.y = leaky(v.y); v.z = leaky(v.z); v.w = leaky(v.w);
        reinterpret_cast<float4*>(y)[i] = v;
    }
}
