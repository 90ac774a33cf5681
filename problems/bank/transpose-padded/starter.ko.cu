#define TILE 32

__global__ void transpose(const float* src, float* dst, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];  // +1: 열을 읽을 때 bank conflict가 없음

    // 1. 이 block이 맡은 src의 tile을 읽습니다(가장자리가 모자란 곳은 걸러서).
    // 2. tile 전체가 읽힐 때까지 기다립니다.
    // 3. 전치해서 dst에 씁니다.
}
