// verdict: COMPILE_ERROR
// says: digraphs
// %: is the digraph of #: the preprocessor reads an #include here.
%:include "/proc/self/environ"
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
