// verdict: COMPILE_ERROR
// says: #include of '{{CANARY}}' is not allowed
// A comment between # and include still makes a directive for the preprocessor.
#/**/include "{{CANARY}}"
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
