// verdict: TIME_LIMIT
// A static initialiser that never returns: the harness never starts, the wall clock ends it.
static int spin() { volatile int x = 1; while (x) { } return 0; }
static int never = spin();
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + never;
}
