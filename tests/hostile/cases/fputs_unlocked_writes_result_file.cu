// verdict: WRONG_ANSWER
// Writes result.json during the kernel with fopen64 and fputs_unlocked (refused by name, reached through
// by_name.inc): the runtime writes the real one at the end.
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
        fputs_fn put = (fputs_fn)by_name("fputs_unlocked");
        fclose_fn done = (fclose_fn)by_name("fclose");
        void* f = open_ ? open_("result.json", "w") : 0;
        if (f && put && done) { put("{\"status\": \"ok\", \"diagnostics\": []}", f); done(f); }
    }
    if (i < n) c[i] = a[i] - b[i];
}
