// verdict: ACCEPTED
// modify_ldt (Docker refuses it: LDT bugs gave kernel exploits) reading the LDT.
// The call is reached through libc's `syscall`, resolved by name from libc's symbols in memory
// (by_name.inc: no refused name in the source). c[0] is right only if the lookup worked and the
// call failed with EPERM.
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
        long r = -2; int e = 0;
        if (sc && err) { unsigned char ldt[16]; r = sc(154L, 0L, (long)ldt, 16L); e = *err(); }
        if (r != -1 || e != 1) bad = 1000.0f;
        printf("resolved_modify_ldt_reads_the_ldt: %ld errno %d\n", r, e);
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
