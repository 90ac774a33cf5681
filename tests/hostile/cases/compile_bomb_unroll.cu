// verdict: COMPILE_ERROR
// A giant unroll: the compiler is asked to copy the body 65534 times, twice nested.
__global__ void add(const float* a, const float* b, float* c, int n) {
    float s = 0;
#pragma GCC unroll 65534
    for (int k = 0; k < 65534; k++) {
#pragma GCC unroll 65534
        for (int j = 0; j < 65534; j++) s += a[(k * 31 + j) % n] * (k ^ j);
    }
    c[0] = s;
}
