// verdict: ACCEPTED
// dlopen("libc.so.6") and dlsym("popen") (both refused by name), resolved from libc's symbols in memory (by_name.inc): a
// shell that cats the secret file outside the box reads nothing (c[0] is right only if it printed nothing).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        void* (*dopen)(const char*, int) = (void* (*)(const char*, int))by_name("dlopen");
        void* (*ds)(void*, const char*) = (void* (*)(void*, const char*))by_name("dlsym");
        void* h = dopen ? dopen("libc.so.6", 2) : 0;
        void* (*po)(const char*, const char*) = h && ds ? (void* (*)(const char*, const char*))ds(h, "popen") : 0;
        void* p = po ? po("cat {{CANARY}}", "r") : 0;
        int (*fg)(void*) = (int (*)(void*))by_name("fgetc");
        int ch = p && fg ? fg(p) : -1;
        if (!po || ch == 'C') bad = 1000.0f;
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
