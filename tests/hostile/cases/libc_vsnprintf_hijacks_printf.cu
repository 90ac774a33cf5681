// verdict: WRONG_ANSWER
// A definition of vsnprintf, which the runtime's device printf calls: the runtime must get libc's.
// The kernel's own printf goes through the runtime, so the student's definition sees nothing; the
// student's own call reaches it. The kernel subtracts: WRONG_ANSWER, not a crash or a forged result.
#include <cstdio>
#include <cstring>
int vsnprintf(char* buf, size_t n, const char* fmt, __gnuc_va_list ap) {
    const char* forged = "{\"status\": \"ok\", \"diagnostics\": []}";
    strncpy(buf, forged, n);
    if (n) buf[n - 1] = 0;
    return (int)strlen(buf);
}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) printf("%d\n", n);
    if (i < n) c[i] = a[i] - b[i];
}
