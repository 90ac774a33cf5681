// Row r's non-zeros are val[row_ptr[r] .. row_ptr[r + 1]), in columns col[...].
__global__ void spmv_csr(const int* __restrict__ row_ptr, const int* __restrict__ col,
                         const float* __restrict__ val, const float* __restrict__ x, float* __restrict__ y,
                         int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float sum = 0.0f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += val[k] * x[col[k]];
        y[r] = sum;  // an empty row gives 0
    }
}
