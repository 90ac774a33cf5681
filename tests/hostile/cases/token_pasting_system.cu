// verdict: COMPILE_ERROR
// says: 'system' is not available in kernels (no file, process or host access)
#include <cstdlib>
#define JOIN(x, y) x##y
__global__ void add(const float* a, const float* b, float* c, int n) {
    JOIN(sys, tem)("touch {{CANARY_DIR}}/wd_hostile_marker");
}
