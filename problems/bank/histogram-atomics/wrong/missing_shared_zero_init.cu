// verdict: WRONG_ANSWER
// Counts into shared bins that were never zeroed. Shared memory is not cleared for a block:
// on an H200 the first blocks on each SM happen to see zeros, but a block that reuses the
// shared memory of a finished one starts from that block's counts (the largest test runs
// 1024 blocks on 132 SMs).
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[256];
    int t = threadIdx.x;

    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();

    atomicAdd(&hist[t], local[t]);
}
