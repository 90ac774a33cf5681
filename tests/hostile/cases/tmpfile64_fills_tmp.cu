// verdict: ACCEPTED RUNTIME_ERROR TIME_LIMIT
// tmpfile64 written past 64 MiB (both it and fwrite_unlocked refused by name, reached through
// by_name.inc): /tmp is a private tmpfs with a cap.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
typedef void* (*tmpfile_fn)(void);
typedef size_t (*fwrite_fn)(const void*, size_t, size_t, void*);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        tmpfile_fn make = (tmpfile_fn)by_name("tmpfile64");
        fwrite_fn put = (fwrite_fn)by_name("fwrite_unlocked");
        void* f = make && put ? make() : 0;
        static char blk[65536];
        for (int k = 0; f && k < 4096; k++) if (put(blk, 1, sizeof blk, f) != sizeof blk) break;
    }
    if (i < n) c[i] = a[i] + b[i];
}
