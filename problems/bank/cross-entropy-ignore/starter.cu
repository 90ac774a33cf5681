#define BLOCK 128
#define IGNORE_INDEX (-100)

__global__ void cross_entropy(const float* logits, const int* target, float* loss_sum, int* valid,
                              int rows, int classes)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    // Skip rows whose target is IGNORE_INDEX. Otherwise: m = the row's max, sum = sum of expf(l - m),
    // loss = logf(sum) + m - l[target]; one thread adds the loss to *loss_sum and 1 to *valid.
}
