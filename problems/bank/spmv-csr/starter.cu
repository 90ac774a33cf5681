__global__ void spmv_csr(const int* __restrict__ row_ptr, const int* __restrict__ col,
                         const float* __restrict__ val, const float* __restrict__ x, float* __restrict__ y,
                         int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    // y[r] = sum over k in [row_ptr[r], row_ptr[r + 1]) of val[k] * x[col[k]]
}
