#define WARP 32
#define BLOCK 256

// Each half of a warp stages 2x in shared memory and reads the other half's slot; the halves take
// different branches and meet at different __syncwarp() calls.
extern "C" __global__ void k(const float* x, float* y, int n)
{
    __shared__ float s[BLOCK];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int lane = t % WARP;
    if (lane < WARP / 2) {
        s[t] = 2.0f * x[i];
        __syncwarp();                 // lanes 16..31 arrive at the call on line 17
        y[i] = s[t ^ 16];
    } else {
        s[t] = x[i] + x[i];
        __syncwarp();
        y[i] = s[t ^ 16];
    }
}
