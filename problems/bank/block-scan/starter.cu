#define BLOCK 256

__global__ void block_scan(const float* x, float* out, int n)
{
    __shared__ float buf[2][BLOCK];  // read one buffer, write the other, swap
    // Load x (0 past n) into buf[0], then for offset = 1, 2, 4, ..., 128:
    //   new[t] = old[t] + (t >= offset ? old[t - offset] : 0)
    // Write the inclusive prefix of each element of the block to out.
}
