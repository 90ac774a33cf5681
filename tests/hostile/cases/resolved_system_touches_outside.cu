// verdict: ACCEPTED
// system() resolved by name from libc's symbols in memory (by_name.inc) (the static checks refuse the name) runs a shell
// that tries to create files outside the box: none of those folders is in the box, so touch fails
// (c[0] is right only then) and the test's watch sees nothing change.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        int (*sys)(const char*) = (int (*)(const char*))by_name("system");
        int r = sys ? sys("touch {{CANARY_DIR}}/wd_hostile_marker /tmp/wd_hostile_marker {{REPO}}/var/wd_hostile_marker") : 0;
        if (!sys || r == 0) bad = 1000.0f;
        printf("system: %d\n", r);
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
