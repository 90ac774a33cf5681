// verdict: COMPILE_ERROR
// says: the preprocessor directive #line is not allowed
// #line would make the student's lines look like the harness's in diagnostics.
#line 1 "<warpdrill harness>"
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
