// verdict: ACCEPTED
// openat(AT_FDCWD, the secret file) as a raw system call through the resolved syscall(): the file is not in the box.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        long (*sc)(long, ...) = (long (*)(long, ...))by_name("syscall");
        int* (*err)(void) = (int* (*)(void))by_name("__errno_location");
        if (!sc || !err) bad = 1000.0f;
        long fd = sc ? sc(257L, -100L, (long)"{{CANARY}}", 0L) : 0;
        if (fd >= 0) bad = 1000.0f;
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
