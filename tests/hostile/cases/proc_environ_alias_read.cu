// verdict: ACCEPTED
// Reads /proc/self/environ and /proc/1/environ (fopen64 and fgetc refused by name, reached through
// by_name.inc) and prints them: the box's environment holds no secret.
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
        const char* paths[2] = {"/proc/self/environ", "/proc/1/environ"};
        for (int p = 0; p < 2 && open_ && get; p++) {
            void* f = open_(paths[p], "r"); int ch;
            while (f && (ch = get(f)) != EOF) printf("%c", ch ? ch : 10);
        }
    }
    if (i < n) c[i] = a[i] + b[i];
}
