// verdict: ACCEPTED
// AF_VSOCK crosses the network namespace (issue #13, 2): with socket/bind/listen resolved by name
// from libc's symbols in memory (by_name.inc) (no refused name in the source), the box asks for a vsock socket and listens.
// The seccomp filter refuses the family: c[0] is right only if the socket was refused and the
// lookup itself worked (a failed lookup would make the case prove nothing, so it is wrong too).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        int (*sock)(int, int, int) = (int (*)(int, int, int))by_name("socket");
        int (*lsn)(int, int) = (int (*)(int, int))by_name("listen");
        int fd = sock ? sock(40, 1, 0) : 0;  // AF_VSOCK, SOCK_STREAM
        if (!sock || !lsn || fd >= 0) bad = 1000.0f;
        if (fd >= 0 && lsn) lsn(fd, 1);
        printf("vsock socket: %d\n", fd);
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
