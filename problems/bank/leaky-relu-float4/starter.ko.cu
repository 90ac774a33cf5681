#define ALPHA 0.1f

__global__ void leaky_relu4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // 원소 4i .. 4i+3을 float4 하나로 읽고 씁니다(reinterpret_cast<const float4*>(x)[i]).
    // 그다음 float4를 채우지 못하는 n % 4개 원소를 처리합니다.
}
