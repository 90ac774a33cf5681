#define BLOCK 256

extern "C" __global__ void aos_to_soa(const float* __restrict__ aos, float* __restrict__ xs,
                                      float* __restrict__ ys, float* __restrict__ zs, int n)
{
    __shared__ float tile[3 * BLOCK];
    int t = threadIdx.x;
    int first = blockIdx.x * BLOCK;
    // 1. Load this block's floats of aos into tile with unit stride.
    // 2. Barrier.
    // 3. Thread t writes point first + t's three fields.
}
