// verdict: ACCEPTED TIME_LIMIT
// checks: racecheck
// The race check runs under ThreadSanitizer, which cannot have an address-space limit (its shadow
// memory reserves terabytes): there an 8 GiB allocation succeeds, and touching it all would take
// 8 GiB of the worker's memory. The check run's time limit and the box's resident-memory cap
// (watched from outside) stop it; outside the race check the address-space limit refuses it.
#include <cstdlib>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        volatile char* p = (volatile char*)malloc(8ull << 30);
        if (p) for (size_t k = 0; k < (8ull << 30); k += 4096) p[k] = 1;
    }
    if (i < n) c[i] = a[i] + b[i];
}
