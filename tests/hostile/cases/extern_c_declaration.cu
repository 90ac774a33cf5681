// verdict: COMPILE_ERROR
// says: extern declarations are not allowed
extern "C" int unlinkat(int, const char*, int);
__global__ void add(const float* a, const float* b, float* c, int n) {
    unlinkat(-100, "{{CANARY}}", 0);
}
