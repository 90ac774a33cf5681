// verdict: WRONG_ANSWER
// Counts into shared bins that were never zeroed: shared memory is not cleared at launch,
// so every bin starts from whatever the memory held.
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
