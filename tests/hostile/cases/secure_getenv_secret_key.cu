// verdict: ACCEPTED
// secure_getenv (refused by name, reached through by_name.inc) of the worker's secrets: the box has a
// clean environment. c[0] is right only if the lookup worked and found none of them.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
typedef char* (*getenv_fn)(const char*);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    getenv_fn look = (getenv_fn)by_name("secure_getenv");
    float leak = !look ? 1000.0f
        : (look("SECRET_KEY") || look("DATABASE_URL") || look("WARPDRILL_SEED_SECRET")) ? 1000.0f : 0.0f;
    if (i < n) c[i] = a[i] + b[i] + leak;
}
