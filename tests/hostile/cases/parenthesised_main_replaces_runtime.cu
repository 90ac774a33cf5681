// verdict: ACCEPTED
// `int (main)(...)` is not renamed by the rewrite (the name is followed by ')', not '('), so it used
// to be the program's main instead of the runtime's: the run ended without a result (a platform
// fault, retried). Localised, it is the student's own function; the runtime's main runs.
int (main)(int argc, char** argv) { return 0; }
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
