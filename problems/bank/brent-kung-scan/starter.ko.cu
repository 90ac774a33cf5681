#define BLOCK 256
#define SECTION (2 * BLOCK)

extern "C" __global__ void brent_kung_scan(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float s[SECTION];
    int t = threadIdx.x;
    int base = blockIdx.x * SECTION;
    // 1. x[base + t]와 x[base + t + 256]을 읽습니다(n 너머는 0).
    // 2. up-sweep 단계: stride = 1, 2, ..., 256: s[(t+1)*2*stride - 1] += s[(t+1)*2*stride - 1 - stride].
    // 3. down-sweep 단계: stride = 128, ..., 1: s[(t+1)*2*stride - 1 + stride] += s[(t+1)*2*stride - 1].
    // 4. 두 원소를 모두 저장합니다.
}
