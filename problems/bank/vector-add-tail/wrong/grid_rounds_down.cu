// verdict: RUNTIME_ERROR
// launch: block=256 grid=n / 256
// The kernel is right, the launch is not: n / 256 rounds down, so the last partial block is
// never launched (n = 1023 leaves 255 elements unwritten), and for n = 1 the grid has zero
// blocks, which CUDA refuses (cudaErrorInvalidConfiguration) - the most severe verdict wins.
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
