// verdict: WRONG_ANSWER
// Counts into shared bins that were never zeroed. CUDA does not clear shared memory for a
// block: its contents at block start are undefined. (An H200 happened to hand out zeroed
// shared memory in every run we measured, so there this bug goes unnoticed; the emulator
// fills shared memory with garbage, as any other GPU may.)
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
