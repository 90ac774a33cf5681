// verdict: COMPILE_ERROR
// says: the preprocessor directive #include_next is not allowed
// #include_next reaches past the allowed headers.
#include_next <stdio.h>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
