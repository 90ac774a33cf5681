// launch: block=256 grid=(n + 255) / 256
// c[i] = a[i] + b[i] for 0 <= i < n.
// Launch: your choice in the launch fields (default block = 256, grid = (n + 255) / 256).
__global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    // TODO: compute this thread's global index and add one element,
    // without touching memory past the end of the arrays.
}
