// verdict: SYNC_ERROR
// No barrier between the staged load and the field reads: thread t reads tile[3t .. 3t + 2],
// which threads 3t % 256 ... of other warps load - a shared-memory race.
#define BLOCK 256
extern "C" __global__ void aos_to_soa(const float* __restrict__ aos, float* __restrict__ xs,
                                      float* __restrict__ ys, float* __restrict__ zs, int n)
{
    __shared__ float tile[3 * BLOCK];
    int t = threadIdx.x;
    int first = blockIdx.x * BLOCK;
    int count = min(BLOCK, n - first);
    const float* src = aos + 3 * (size_t)first;
    for (int k = t; k < 3 * count; k += BLOCK) tile[k] = src[k];
    if (t < count) {
        int i = first + t;
        xs[i] = tile[3 * t];
        ys[i] = tile[3 * t + 1];
        zs[i] = tile[3 * t + 2];
    }
}
