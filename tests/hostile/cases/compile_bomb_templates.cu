// verdict: COMPILE_ERROR
// Exponentially many distinct instantiations: the compiler's time and memory limits stop it.
template <int N, int K> struct Bomb {
    static const int v = Bomb<N - 1, 2 * K>::v + Bomb<N - 1, 2 * K + 1>::v;
};
template <int K> struct Bomb<0, K> { static const int v = K; };
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i] + (Bomb<30, 1>::v & 0);
}
