// verdict: ACCEPTED
// freopen64 of stdout (both refused by name, reached through by_name.inc) onto a file in the project:
// the project is not in the box.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
typedef void* (*freopen_fn)(const char*, const char*, void*);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        freopen_fn reopen = (freopen_fn)by_name("freopen64");
        void** out = (void**)by_name("stdout");
        if (reopen && out) reopen("{{REPO}}/wd_hostile_marker", "w", *out);
    }
    if (i < n) c[i] = a[i] + b[i];
}
