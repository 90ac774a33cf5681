// verdict: ACCEPTED
// open64 resolved by name from libc's symbols in memory (by_name.inc) (no header declares it here): the secret file outside
// the box is not in the box. c[0] is right only if the lookup worked and the open failed.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        int (*op)(const char*, int, ...) = (int (*)(const char*, int, ...))by_name("open64");
        int fd = op ? op("{{CANARY}}", 0) : 0;
        if (!op || fd >= 0) bad = 1000.0f;
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
