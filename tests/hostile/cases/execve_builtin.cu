// verdict: COMPILE_ERROR
// says: '__builtin_execve' is not available
// GCC knows execve as a builtin: no declaration or header needed.
__global__ void add(const float* a, const float* b, float* c, int n) {
    const char* argv[] = {"/bin/sh", "-c", "touch {{CANARY_DIR}}/wd_hostile_marker", 0};
    __builtin_execve("/bin/sh", (char* const*)argv, 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
