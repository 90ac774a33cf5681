#define ALPHA 0.1f

__global__ void leaky_relu4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // Read and write elements 4i .. 4i+3 as one float4 (reinterpret_cast<const float4*>(x)[i]),
    // then handle the n % 4 elements that do not fill a float4.
}
