#define BLOCK 256

__global__ void reverse_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    // x[base .. base + len)을 뒤집어 y[base .. base + len)에 씁니다. base = blockIdx.x * 256이고
    // len은 256입니다(마지막 구간만 더 짧음).
}
