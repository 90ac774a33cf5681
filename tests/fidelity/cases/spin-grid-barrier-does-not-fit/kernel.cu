__device__ void grid_barrier(volatile unsigned int* count, unsigned int blocks)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        atomicAdd((unsigned int*)count, 1u);
        while (*count < blocks) { }              // spin until every block has arrived
        __threadfence();
    }
    __syncthreads();
}

__global__ void k(const float* x, float* partial, unsigned int* count, float* total, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 256 + t];
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
    grid_barrier(count, gridDim.x);
    if (blockIdx.x == 0 && t == 0) {
        float sum = 0.0f;
        for (int b = 0; b < gridDim.x; ++b) sum += ((volatile float*)partial)[b];
        total[0] = sum;
    }
}
