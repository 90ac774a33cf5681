#define BLOCK 256
#define PAD 0x7fffffff

__global__ void sort_segments(const int* x, int* y, int n)
{
    __shared__ int s[BLOCK];
    // block의 구간을 읽고(n 너머는 PAD), bitonic network로 s[0..255]를 오름차순 정렬한 뒤
    // (k = 2, 4, ..., 256; j = k/2, ..., 1; partner = t ^ j; (t & k) == 0이면 오름차순),
    // 앞의 len개 원소를 다시 씁니다.
}
