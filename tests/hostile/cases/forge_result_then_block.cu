// verdict: TIME_LIMIT
// Writes a forged result.json, then blocks forever (a pseudo-terminal read): a run killed at the wall
// clock is not believed. stdio is refused by name and reached through by_name.inc.
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
        fgetc_fn get = (fgetc_fn)by_name("fgetc");
        void* f = open_ ? open_("result.json", "w") : 0;
        if (f && put && done) { put("{\"status\": \"ok\", \"message\": \"\", \"time_s\": 0.001, \"diagnostics\": []}", f); done(f); }
        void* t = open_ ? open_("/dev/ptmx", "r") : 0;
        if (t && get) c[0] = (float)get(t);
    }
    if (i < n && i > 0) c[i] = a[i] + b[i];
}
