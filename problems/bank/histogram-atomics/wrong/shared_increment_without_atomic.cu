// verdict: SYNC_ERROR
// `local[v]++` is a load, an add and a store: two threads of the block counting the same
// value both load the old count and one increment is lost. A shared-memory race.
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n)
{
    __shared__ unsigned int local[256];
    int t = threadIdx.x;

    local[t] = 0;
    __syncthreads();

    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) {
        local[data[i]]++;
    }
    __syncthreads();

    if (local[t] != 0) {
        atomicAdd(&hist[t], local[t]);
    }
}
