// verdict: ACCEPTED RUNTIME_ERROR TIME_LIMIT
// tmpfile64 (an alias of the refused tmpfile) written past 64 MiB: /tmp is a private tmpfs with a cap.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { FILE* f = tmpfile64(); static char blk[65536]; for (int k = 0; f && k < 4096; k++) if (fwrite_unlocked(blk, 1, sizeof blk, f) != sizeof blk) break; }
    if (i < n) c[i] = a[i] + b[i];
}
