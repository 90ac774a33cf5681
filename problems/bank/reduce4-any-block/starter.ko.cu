// y[0] += x[0] + ... + x[n-1]. y는 {0}으로 옵니다.
// 테스트마다 32부터 1024까지 서로 다른 2의 거듭제곱 blockDim.x와
// float blockDim.x개의 dynamic shared memory로 실행합니다: 256을 가정하면 안 됩니다.
__global__ void reduce4(float* y, const float* x, int n)
{
    extern __shared__ float tsum[];
    // TODO: tsum[threadIdx.x]에 grid-stride 부분합, warp가 둘 이상 관여하는 동안은
    // __syncthreads() tree, 마지막 warp 안에서는 __syncwarp() 단계, 그다음 block마다
    // y[0]에 atomicAdd 한 번.
}
