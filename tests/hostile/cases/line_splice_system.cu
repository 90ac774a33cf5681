// verdict: COMPILE_ERROR
// says: backslash
#include <cstdlib>
__global__ void add(const float* a, const float* b, float* c, int n) {
    sys\
tem("touch {{CANARY_DIR}}/wd_hostile_marker");
}
