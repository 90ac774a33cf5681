// verdict: ACCEPTED
// socketpair is filtered like socket: AF_VSOCK through socketpair.
// socket/socketpair are resolved by name from libc's symbols in memory (by_name.inc) (the static checks refuse the names);
// c[0] is right only if the filter refused the family with EAFNOSUPPORT.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        int* (*err)(void) = (int* (*)(void))by_name("__errno_location");
        long r = -2; int e = 0;
        if (!err) bad = 1000.0f;
        int (*pair)(int, int, int, int*) = (int (*)(int, int, int, int*))by_name("socketpair");
        int sv[2];
        if (pair) { r = pair(40, 1, 0, sv); e = *err(); }
        if (r != -1 || e != 97) bad = 1000.0f;
        printf("resolved_socketpair_vsock: %ld errno %d\n", r, e);
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
