// verdict: COMPILE_ERROR
// says: token pasting (##) is not allowed
#include <cstdlib>
#define JOIN(x, y) x##y
__global__ void add(const float* a, const float* b, float* c, int n) {
    JOIN(sys, tem)("touch {{CANARY_DIR}}/wd_hostile_marker");
}
