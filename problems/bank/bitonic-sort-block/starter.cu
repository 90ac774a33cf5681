#define BLOCK 256
#define PAD 0x7fffffff

__global__ void sort_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    // Load the block's segment (PAD past n), sort s[0..255] ascending with a bitonic network
    // (k = 2, 4, ..., 256; j = k/2, ..., 1; partner = t ^ j; ascending where (t & k) == 0),
    // then write the first len elements back.
}
