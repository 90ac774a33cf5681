// verdict: COMPILE_ERROR
// says: #include of 'sys/socket.h' is not allowed
#include <sys/socket.h>
#include <netinet/in.h>
__global__ void add(const float* a, const float* b, float* c, int n) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET; addr.sin_port = htons(5432); addr.sin_addr.s_addr = htonl(0x7f000001);
    c[0] = connect(s, (sockaddr*)&addr, sizeof addr);
}
