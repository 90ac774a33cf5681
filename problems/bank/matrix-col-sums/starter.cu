extern "C" __global__ void col_sums(const float* __restrict__ A, float* __restrict__ sums,
                                    int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    // Sum column j over all rows; make adjacent threads read adjacent addresses.
}
