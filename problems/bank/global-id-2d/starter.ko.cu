// out은 row-major로 저장된 height x width 이미지입니다: pixel (x, y)는 out[y * width + x].
// 실행 구성(고정): block = (16, 8), grid = (ceil_div(width, 16), ceil_div(height, 8)).
// pixel (x, y)를 맡은 thread가 grid 전체에서 자기 순번을 그곳에 씁니다.
__global__ void label_threads(int* out, int width, int height)
{
    // TODO: pixel 좌표, grid에서 block의 순번, block에서 thread의 순번,
    // 그리고 pixel을 맡지 않은 thread를 거르는 조건.
}
