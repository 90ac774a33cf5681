// verdict: COMPILE_ERROR
// says: is not allowed
// A compile bomb: the file includes itself (the preprocessor would recurse 200 levels deep).
#include __FILE__
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
