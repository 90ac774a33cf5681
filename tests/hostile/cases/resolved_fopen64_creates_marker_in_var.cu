// verdict: ACCEPTED
// fopen64 (refused by name, reached through by_name.inc) for writing in the project's var/ and in /tmp:
// neither is the host's (the watch checks both).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
typedef void* (*fopen_fn)(const char*, const char*);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        fopen_fn make = (fopen_fn)by_name("fopen64");
        if (make) { make("{{REPO}}/var/wd_hostile_marker", "w"); make("/tmp/wd_hostile_marker", "w"); }
    }
    if (i < n) c[i] = a[i] + b[i];
}
