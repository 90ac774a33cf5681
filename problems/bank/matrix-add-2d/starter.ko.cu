// row-major로 저장된 height x width 행렬의 C = A + B: 원소 (행 y, 열 x)는
// 인덱스 y * width + x에 있습니다.
// 실행 구성(고정): block = (16, 16), grid = (ceil_div(width, 16), ceil_div(height, 16)).
__global__ void matrix_add(const float* A, const float* B, float* C, int width, int height)
{
    // TODO: 원소당 thread 하나; width와 height는 16의 배수가 아닐 수 있습니다.
}
