// verdict: SYNC_ERROR
// gpu-verdict: WRONG_ANSWER (the race is between shared-memory atomics and a plain read, which racecheck does not report)
// No barrier between counting and merging: thread t reads local[t] while other threads of
// the block may still be adding into it, so late counts are never merged.
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[256];
    int t = threadIdx.x;

    local[t] = 0;
    __syncthreads();

    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }

    if (local[t] != 0) {
        atomicAdd(&hist[t], local[t]);
    }
}
