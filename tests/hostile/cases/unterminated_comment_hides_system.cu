// verdict: COMPILE_ERROR
// An unclosed block comment: the compiler refuses it (unterminated comment), whatever it hides.
#include <cstdlib>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
/* system("touch {{CANARY_DIR}}/wd_hostile_marker");
