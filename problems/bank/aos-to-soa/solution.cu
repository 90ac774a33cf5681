#define BLOCK 256

// Block b owns points [256b, 256b + 256), i.e. floats [768b, 768b + 768) of aos.
// Reading aos[3 * i + k] directly would make each warp's loads stride-3; instead the block loads
// its 768 floats with unit stride (3 loads per thread), then reads the fields from shared memory.
extern "C" __global__ void aos_to_soa(const float* __restrict__ aos, float* __restrict__ xs,
                                      float* __restrict__ ys, float* __restrict__ zs, int n)
{
    __shared__ float tile[3 * BLOCK];
    int t = threadIdx.x;
    int first = blockIdx.x * BLOCK;                // first point of the block
    int count = min(BLOCK, n - first);             // points in this block (ragged last block)
    const float* src = aos + 3 * (size_t)first;

    for (int k = t; k < 3 * count; k += BLOCK) tile[k] = src[k];
    __syncthreads();

    if (t < count) {
        int i = first + t;
        xs[i] = tile[3 * t];
        ys[i] = tile[3 * t + 1];
        zs[i] = tile[3 * t + 2];
    }
}
