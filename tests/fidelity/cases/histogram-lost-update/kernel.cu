__global__ void k(const unsigned char* data, unsigned int* hist, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        hist[data[i]]++;   // read-modify-write without an atomic: updates are lost
}
