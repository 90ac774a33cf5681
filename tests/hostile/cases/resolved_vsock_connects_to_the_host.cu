// verdict: ACCEPTED
// AF_VSOCK to CID 2 (the host), port 22: vsock is machine-wide, so the network namespace does not stop it;
// the seccomp filter does. socket/connect are resolved by name from libc's symbols in memory (by_name.inc).
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
        int (*sock)(int, int, int) = (int (*)(int, int, int))by_name("socket");
        int (*conn)(int, const void*, unsigned) = (int (*)(int, const void*, unsigned))by_name("connect");
        if (!err || !sock || !conn) bad = 1000.0f;
        int fd = sock ? sock(40, 1, 0) : 0;
        unsigned char addr[16] = {0}; addr[0] = 40; *(unsigned*)(addr + 4) = 22; *(unsigned*)(addr + 8) = 2;  // CID 2: the host
        int r = fd >= 0 && conn ? conn(fd, addr, 16) : -1;
        if (fd != -1 || r == 0) bad = 1000.0f;
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
