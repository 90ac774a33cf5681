// verdict: ACCEPTED
// dlsym (refused by name) resolved from libc's symbols in memory (by_name.inc), then dlsym(RTLD_DEFAULT, "system"): the shell
// it runs cannot create a file outside the box (c[0] is right only if the lookups worked and touch failed).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        void* (*ds)(void*, const char*) = (void* (*)(void*, const char*))by_name("dlsym");
        int (*sys)(const char*) = ds ? (int (*)(const char*))ds((void*)0, "system") : 0;
        int r = sys ? sys("touch {{CANARY_DIR}}/wd_hostile_marker {{REPO}}/var/wd_hostile_marker") : 0;
        if (!sys || r == 0) bad = 1000.0f;
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
