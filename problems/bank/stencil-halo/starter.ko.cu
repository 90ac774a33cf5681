#define BLOCK 256
#define RADIUS 3

__constant__ float W[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};

__global__ void stencil7(const float* x, float* y, int n)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    // block의 원소 256개와 양쪽 halo 칸 3개씩(x 밖은 0)을 읽고 기다린 뒤,
    // y[i] = k = -3..3에 대한 W[k + 3] * x[i + k]의 합.
}
