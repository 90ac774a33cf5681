// verdict: MEMORY_ERROR
// launch: block=256 grid=(n + 255) / 256
// No guard: the threads of the last block past n read a and b and write c out of
// bounds. On a GPU this often "works" (the allocation has slack); memcheck sees it.
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}
