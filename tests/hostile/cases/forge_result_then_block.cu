// verdict: TIME_LIMIT
// Writes a forged result.json, then blocks forever (a pseudo-terminal read): a run killed at the wall clock is not believed.
#include <cstdio>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        FILE* f = fopen64("result.json", "w");
        if (f) { fputs_unlocked("{\"status\": \"ok\", \"message\": \"\", \"time_s\": 0.001, \"diagnostics\": []}", f); fclose(f); }
        FILE* t = fopen64("/dev/ptmx", "r");
        if (t) c[0] = (float)fgetc(t);
    }
    if (i < n && i > 0) c[i] = a[i] + b[i];
}
