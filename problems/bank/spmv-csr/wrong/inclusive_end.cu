// verdict: MEMORY_ERROR
// The loop runs to row_ptr[r + 1] inclusive: every row takes one extra element (the next row's
// first), and the last row reads one past the end of col and val.
__global__ void spmv_csr(const int* row_ptr, const int* col, const float* val, const float* x, float* y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float sum = 0.0f;
        for (int k = row_ptr[r]; k <= row_ptr[r + 1]; ++k) sum += val[k] * x[col[k]];
        y[r] = sum;
    }
}
