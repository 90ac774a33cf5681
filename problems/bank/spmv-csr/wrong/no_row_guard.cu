// verdict: MEMORY_ERROR
// No guard on r: threads past the last row read row_ptr[r] and row_ptr[r + 1] beyond its rows + 1
// entries and write y past its end.
__global__ void spmv_csr(const int* row_ptr, const int* col, const float* val, const float* x, float* y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += val[k] * x[col[k]];
    y[r] = sum;
}
