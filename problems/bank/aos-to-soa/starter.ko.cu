#define BLOCK 256

extern "C" __global__ void aos_to_soa(const float* __restrict__ aos, float* __restrict__ xs,
                                      float* __restrict__ ys, float* __restrict__ zs, int n)
{
    __shared__ float tile[3 * BLOCK];
    int t = threadIdx.x;
    int first = blockIdx.x * BLOCK;
    // 1. 이 block이 맡은 aos의 float들을 stride 1로 tile에 읽어 들입니다.
    // 2. barrier로 동기화합니다.
    // 3. thread t가 점 first + t의 세 필드를 씁니다.
}
