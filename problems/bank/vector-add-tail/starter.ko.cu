// launch: block=256 grid=(n + 255) / 256
// 0 <= i < n에 대해 c[i] = a[i] + b[i].
// 실행 구성: 실행 구성 칸에서 직접 고릅니다(기본값 block = 256, grid = (n + 255) / 256).
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    // TODO: 이 thread의 global index를 계산해 원소 하나를 더하세요.
    // 배열 끝 너머의 메모리는 건드리지 마세요.
}
