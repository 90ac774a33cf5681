// verdict: RUNTIME_ERROR
// says: output buffer c was missing
// execve resolved by name from libc's symbols in memory (by_name.inc) replaces the runtime with a shell that writes a
// result file of its own, {"status": "ok"}, and no output buffers. The worker used to believe the
// status and then fail on the missing c.out (FileNotFoundError: a platform fault, retried, then
// INTERNAL_ERROR that costs no attempt); a missing or wrong-sized output is now the student's
// runtime error. The shell cannot reach outside the box either.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        int (*ex)(const char*, char* const*, char* const*) = (int (*)(const char*, char* const*, char* const*))by_name("execve");
        const char* argv[] = {"/bin/sh", "-c", "touch {{CANARY_DIR}}/wd_hostile_marker; echo '{\"status\": \"ok\"}' > result.json", 0};
        if (ex) ex("/bin/sh", (char* const*)argv, 0);
        bad = 1000.0f;  // execve failed or was not found
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
