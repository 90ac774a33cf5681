// verdict: WRONG_ANSWER
// One element per thread, as if the grid covered the input: it does not. The grid is capped
// at 64 blocks = 16384 threads, so the rest of a larger input is never counted.
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[256];
    int t = threadIdx.x;

    local[t] = 0;
    __syncthreads();

    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();

    if (local[t] != 0) {
        atomicAdd(&hist[t], local[t]);
    }
}
