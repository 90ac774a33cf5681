// verdict: TIME_LIMIT
// A static initialiser that blocks without using CPU, before the runtime has read its job: the wall
// clock ends it. (fopen64 and fgetc are refused by name and reached through by_name.inc.)
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
static int block_forever() {
    fopen_fn open_ = (fopen_fn)by_name("fopen64");
    fgetc_fn get = (fgetc_fn)by_name("fgetc");
    void* t = open_ && get ? open_("/dev/ptmx", "r") : 0;
    return t ? get(t) : 0;
}
static int early = block_forever();
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + early;
}
