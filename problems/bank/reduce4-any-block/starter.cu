// y[0] += x[0] + ... + x[n-1]. y arrives as {0}.
// Each test launches with another power-of-two blockDim.x from 32 to 1024 and
// blockDim.x floats of dynamic shared memory: nothing may assume 256.
__global__ void reduce4(float* y, const float* x, int n)
{
    extern __shared__ float tsum[];
    // TODO: grid-stride partial sums into tsum[threadIdx.x], a __syncthreads() tree while
    // more than one warp is involved, __syncwarp() steps inside the last warp, then one
    // atomicAdd per block into y[0].
}
