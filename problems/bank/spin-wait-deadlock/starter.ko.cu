// 이 커널은 멈춥니다. 계산하는 값은 그대로 두고 올바르게 고치세요:
// i < n에 대해 out[i] = x[i] - (i의 block이 맡은 원소에서 x의 최솟값).
// 실행 구성(고정): block = 256, grid = ceil_div(n, 256).
__global__ void subtract_block_min(const int* x, int* out, int n)
{
    __shared__ int m;
    __shared__ volatile int ready;
    int t = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int i = start + t;

    if (t == 0) ready = 0;
    __syncthreads();

    if (t == 0) {
        int end = min(start + (int)blockDim.x, n);
        int v = x[start];
        for (int k = start + 1; k < end; ++k) v = min(v, x[k]);
        m = v;
        __syncthreads();  // m을 block 전체에 보이게 함
        ready = 1;
    } else {
        while (ready == 0) { }  // thread 0을 기다림
    }
    if (i < n) out[i] = x[i] - m;
}
