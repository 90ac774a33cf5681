#define BLOCK 256
#define RADIUS 3

__constant__ float W[2 * RADIUS + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};

__global__ void stencil7(const float* x, float* y, int n)
{
    __shared__ float tile[BLOCK + 2 * RADIUS];
    // Load the block's 256 elements and the 3 halo cells on each side (0 outside x), wait, then
    // y[i] = sum over k = -3..3 of W[k + 3] * x[i + k].
}
