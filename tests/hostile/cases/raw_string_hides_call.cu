// verdict: COMPILE_ERROR
// says: 'system' is not available
#include <cstdlib>
__global__ void add(const float* a, const float* b, float* c, int n) {
    const char* s = R"x(")x"; system("touch {{CANARY_DIR}}/wd_hostile_marker"); //"
}
