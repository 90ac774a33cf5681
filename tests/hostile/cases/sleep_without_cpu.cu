// verdict: TIME_LIMIT
// A kernel that blocks without using CPU: it opens a pseudo-terminal master (fopen64 and fgetc are
// refused by name and reached through by_name.inc) and waits for input that never comes. The time
// limit counts CPU time, so only the wall-clock backstop can end it.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
// stdio reached by name: a stream is a void* here (FILE itself is refused).
typedef void* (*fopen_fn)(const char*, const char*);
typedef int (*fgetc_fn)(void*);
typedef int (*fputs_fn)(const char*, void*);
typedef int (*fclose_fn)(void*);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        fopen_fn open_ = (fopen_fn)by_name("fopen64");
        fgetc_fn get = (fgetc_fn)by_name("fgetc");
        void* f = open_ && get ? open_("/dev/ptmx", "r") : 0;
        c[0] = f ? (float)get(f) : -1.0f;
    }
    if (i < n && i > 0) c[i] = a[i] + b[i];
}
