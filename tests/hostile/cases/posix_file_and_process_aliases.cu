// verdict: COMPILE_ERROR
// says: '__isoc99_fscanf' is not available
// glibc's other spellings of refused functions, declared by hand (no header needed): the large-file
// ...64, the _unlocked, __isoc99_ and __libc_ forms, and the file and process calls a kernel never needs.
int open64(const char*, int, ...);
int __isoc99_fscanf(void*, const char*, ...);
long readlink(const char*, char*, unsigned long);
void* dlopen(const char*, int);
long syscall(long, ...);
void* mmap64(void*, unsigned long, int, int, int, long);
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
