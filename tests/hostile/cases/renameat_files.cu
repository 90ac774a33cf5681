// verdict: ACCEPTED
// renameat (refused by name, reached through by_name.inc) of the run's input file after it was read, and
// of a host file: only this run's folder is reachable.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
{{BY_NAME}}
typedef int (*renameat_fn)(int, const char*, int, const char*);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        renameat_fn move = (renameat_fn)by_name("renameat");
        if (move) { move(-100, "a0.bin", -100, "gone.bin"); move(-100, "{{CANARY}}", -100, "stolen.txt"); }
    }
    if (i < n) c[i] = a[i] + b[i];
}
