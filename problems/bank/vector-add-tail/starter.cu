// c[i] = a[i] + b[i] for 0 <= i < n.
// Launch (fixed): block = 256, grid = ceil_div(n, 256).
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    // TODO: compute this thread's global index and add one element,
    // without touching memory past the end of the arrays.
}
