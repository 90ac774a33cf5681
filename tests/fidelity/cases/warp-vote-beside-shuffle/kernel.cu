#define FULL_MASK 0xffffffffu
#define HALF_WARP 16

// Half of each warp votes while the other half shuffles, both naming the whole warp.
extern "C" __global__ void k(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    float v = x[i];
    if (lane < HALF_WARP) {
        unsigned positive = __ballot_sync(FULL_MASK, v > 0.0f);   // lanes 16..31 never vote
        y[i] = (float)__popc(positive);
    } else {
        y[i] = __shfl_down_sync(FULL_MASK, v, 1);                 // lanes 0..15 never shuffle
    }
}
