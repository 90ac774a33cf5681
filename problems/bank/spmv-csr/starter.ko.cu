__global__ void spmv_csr(const int* __restrict__ row_ptr, const int* __restrict__ col,
                         const float* __restrict__ val, const float* __restrict__ x, float* __restrict__ y,
                         int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    // y[r] = [row_ptr[r], row_ptr[r + 1]) 안의 k에 대한 val[k] * x[col[k]]의 합
}
