// y[0] += x[0] + ... + x[n-1]. y arrives as {0}.
// You choose the launch: blockDim.x a power of two from 32 to 1024, any grid, and
// blockDim.x floats of dynamic shared memory, e.g.
// launch: block=256 grid=min(ceil_div(n, 256), 264) shared=block_x * 4
__global__ void reduce4(float* y, const float* x, int n)
{
    extern __shared__ float tsum[];
    // TODO: grid-stride partial sums into tsum[threadIdx.x], a __syncthreads() tree while
    // more than one warp is involved, __syncwarp() steps inside the last warp, then one
    // atomicAdd per block into y[0].
}
