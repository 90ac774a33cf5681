// Privatised histogram: shared-memory atomics are cheap and contend only inside the block;
// each block then adds 256 partial counts into the global histogram.
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[256];
    int t = threadIdx.x;

    local[t] = 0;  // shared memory starts with garbage
    __syncthreads();  // every bin is zero before anyone counts

    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();  // every count of this block is in before the merge reads it

    if (local[t] != 0) {
        atomicAdd(&hist[t], local[t]);
    }
}
