#define BLOCK 128
#define IGNORE_INDEX (-100)

__global__ void cross_entropy(const float* logits, const int* target, float* loss_sum, int* valid,
                              int rows, int classes)
{
    __shared__ float s[BLOCK];
    int row = blockIdx.x, t = threadIdx.x;
    // target이 IGNORE_INDEX인 행은 건너뜁니다. 아니면: m = 행의 최댓값, sum = expf(l - m)의 합,
    // loss = logf(sum) + m - l[target]; thread 하나가 loss를 *loss_sum에, 1을 *valid에 더합니다.
}
