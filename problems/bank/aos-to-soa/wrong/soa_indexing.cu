// verdict: WRONG_ANSWER
// Reads the input as if it were already three arrays (x block, then y block, then z block):
// aos[i], aos[n + i], aos[2n + i]. In an array of structures the fields of point i are adjacent,
// at 3i, 3i + 1, 3i + 2.
extern "C" __global__ void aos_to_soa(const float* __restrict__ aos, float* __restrict__ xs,
                                      float* __restrict__ ys, float* __restrict__ zs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        xs[i] = aos[i];
        ys[i] = aos[n + i];
        zs[i] = aos[2 * n + i];
    }
}
