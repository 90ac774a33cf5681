#define BLOCK 256

__global__ void reverse_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    // Reverse x[base .. base + len) into y[base .. base + len), where base = blockIdx.x * 256 and
    // len = 256 except for a shorter last segment.
}
