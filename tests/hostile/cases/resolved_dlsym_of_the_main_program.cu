// verdict: ACCEPTED
// dlopen(NULL) is the program itself: the student looks its symbols up by name to reach the runtime's
// own functions. The student's object is localised and the runtime's libc calls are its own, so what
// the student finds is libc (a control), and calling it changes nothing the worker reads.
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
        void* h = dopen ? dopen((const char*)0, 2) : 0;
        if (!h || !ds) bad = 1000.0f;
        const char* names[] = {"snprintf", "fopen", "printf"};
        for (int k = 0; h && ds && k < 3; k++) if (!ds(h, names[k])) bad = 1000.0f;  // libc's, as a control
        if (h && ds && (ds(h, "main") || ds(h, "_ZN2wd6reportEv"))) printf("main is exported\n");
        int (*sn)(char*, unsigned long, const char*, ...) = h && ds ? (int (*)(char*, unsigned long, const char*, ...))ds(h, "snprintf") : 0;
        char buf[8]; if (sn) sn(buf, sizeof buf, "%s", "forged");
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
