// verdict: MEMORY_ERROR
// Every block loads a full 768-float tile: the ragged last block reads past the end of aos.
#define BLOCK 256
extern "C" __global__ void aos_to_soa(const float* __restrict__ aos, float* __restrict__ xs,
                                      float* __restrict__ ys, float* __restrict__ zs, int n)
{
    __shared__ float tile[3 * BLOCK];
    int t = threadIdx.x;
    int first = blockIdx.x * BLOCK;
    const float* src = aos + 3 * (size_t)first;
    for (int k = t; k < 3 * BLOCK; k += BLOCK) tile[k] = src[k];
    __syncthreads();
    int i = first + t;
    if (i < n) {
        xs[i] = tile[3 * t];
        ys[i] = tile[3 * t + 1];
        zs[i] = tile[3 * t + 2];
    }
}
