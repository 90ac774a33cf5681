// verdict: COMPILE_ERROR
// says: 'socket' is not available
// No header: the declarations are written out (C++ linkage, so they would not even link).
struct sockaddr_in4 { unsigned short family, port; unsigned addr; char zero[8]; };
int socket(int, int, int);
int connect(int, const void*, unsigned);
__global__ void add(const float* a, const float* b, float* c, int n) {
    sockaddr_in4 addr{2, 0x3500, 0x08080808, {}};
    c[0] = connect(socket(2, 1, 0), &addr, sizeof addr);
}
