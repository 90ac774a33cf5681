#include <string.h>

struct Particle { float x, y, z, w; };

__global__ void k(const float* x, float* y, int n)
{
    __shared__ Particle p[64];
    int t = threadIdx.x, i = blockIdx.x * 64 + t;
    Particle q = {x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]};
    memcpy(&p[t], &q, sizeof(Particle));         // inlined 16-byte copy into shared memory
    // missing: __syncthreads();
    Particle r;
    memcpy(&r, &p[(t + 1) % 64], sizeof(Particle));
    y[i] = r.x + r.y + r.z + r.w;
}
