// verdict: SYNC_ERROR
// The tree has no barrier between its steps: thread t reads s[t + stride] while the thread that
// owns it may still be writing its previous step's value - a shared-memory race.
#include <climits>
#define BLOCK 256
extern "C" __global__ void max_atomic(const int* __restrict__ x, int* result, int n)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = (i < n) ? x[i] : INT_MIN;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = max(s[t], s[t + stride]);
    }
    __syncthreads();
    if (t == 0) atomicMax(result, s[0]);
}
