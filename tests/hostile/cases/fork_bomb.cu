// verdict: COMPILE_ERROR
// says: 'fork' is not available
#include <cstdlib>
int fork();
__global__ void add(const float* a, const float* b, float* c, int n) {
    while (true) fork();
}
