// verdict: WRONG_ANSWER
// x is indexed by the row instead of the non-zero's column: y[r] = x[r] * (sum of row r's values).
__global__ void spmv_csr(const int* row_ptr, const int* col, const float* val, const float* x, float* y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float sum = 0.0f;
        for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += val[k] * x[r];
        y[r] = sum;
    }
}
