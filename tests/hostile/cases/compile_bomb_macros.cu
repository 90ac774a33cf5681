// verdict: COMPILE_ERROR
// Ten levels of tenfold macro expansion: 10^10 tokens.
#define X1 a[0] + a[0] + a[0] + a[0] + a[0] + a[0] + a[0] + a[0] + a[0] + a[0]
#define X2 X1 + X1 + X1 + X1 + X1 + X1 + X1 + X1 + X1 + X1
#define X3 X2 + X2 + X2 + X2 + X2 + X2 + X2 + X2 + X2 + X2
#define X4 X3 + X3 + X3 + X3 + X3 + X3 + X3 + X3 + X3 + X3
#define X5 X4 + X4 + X4 + X4 + X4 + X4 + X4 + X4 + X4 + X4
#define X6 X5 + X5 + X5 + X5 + X5 + X5 + X5 + X5 + X5 + X5
#define X7 X6 + X6 + X6 + X6 + X6 + X6 + X6 + X6 + X6 + X6
#define X8 X7 + X7 + X7 + X7 + X7 + X7 + X7 + X7 + X7 + X7
#define X9 X8 + X8 + X8 + X8 + X8 + X8 + X8 + X8 + X8 + X8
#define X10 X9 + X9 + X9 + X9 + X9 + X9 + X9 + X9 + X9 + X9
__global__ void add(const float* a, const float* b, float* c, int n) {
    c[0] = X10;
}
