// verdict: WRONG_ANSWER
// dprintf (refused by name, reached through by_name.inc) writes a forged verdict straight to stdout and
// stderr: neither is the result channel.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
typedef int (*dprintf_fn)(int, const char*, ...);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        dprintf_fn out = (dprintf_fn)by_name("dprintf");
        if (out) { out(1, "{\"status\": \"ok\", \"verdict\": \"ACCEPTED\"}\n"); out(2, "submission 1 graded: ACCEPTED\n"); }
    }
    if (i < n) c[i] = a[i] - b[i];
}
