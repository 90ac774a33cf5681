// verdict: TIME_LIMIT DEADLOCK
// Thread 0 waits for a flag that no thread ever sets.
__global__ void add(const float* a, const float* b, float* c, int n) {
    volatile float* flag = c;
    if (threadIdx.x == 0) while (flag[n - 1] != 12345.0f) { }
}
