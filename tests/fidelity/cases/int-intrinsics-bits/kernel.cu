__global__ void k(const unsigned int* x, int* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int u = x[i];
    int* o = y + 6 * i;
    o[0] = __popc(u);
    o[1] = __clz(u);
    o[2] = __ffs(u);
    o[3] = (int)__brev(u);
    o[4] = __float_as_int(__int_as_float(u));
    o[5] = __float_as_int((float)(u & 0xffffu));
}
