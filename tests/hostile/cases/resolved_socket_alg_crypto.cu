// verdict: ACCEPTED
// AF_ALG: the kernel's crypto API, source of several kernel exploits.
// socket/socketpair are resolved by name from /proc/self/maps (the static checks refuse the names);
// c[0] is right only if the filter refused the family with EAFNOSUPPORT.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
// Resolve a libc function by name without naming it: the mapping of libc.so.6 at offset 0 in
// /proc/self/maps is its load address, and libc's own .dynsym (read from the file) gives the offset.
__device__ unsigned long maps_libc(char* path, int cap) {
    FILE* m = fopen64("/proc/self/maps", "r");
    if (!m) return 0;
    char line[512]; int n = 0, ch; unsigned long found = 0;
    while ((ch = fgetc(m)) != EOF) {
        if (ch != '\n') { if (n < 511) line[n++] = (char)ch; continue; }
        line[n] = 0; n = 0;
        char* slash = strchr(line, '/');
        if (found || !slash || !strstr(slash, "libc.so")) continue;
        char* q = strchr(strchr(line, ' ') + 1, ' ');
        if (strtoul(q + 1, 0, 16) != 0) continue;
        strncpy(path, slash, cap - 1); path[cap - 1] = 0;
        found = strtoul(line, 0, 16);
    }
    fclose(m);
    return found;
}
__device__ void* by_name(const char* want) {
    char path[256];
    unsigned long base = maps_libc(path, sizeof path);
    if (!base) return 0;
    FILE* f = fopen64(path, "r");
    if (!f) return 0;
    size_t cap = 1 << 23, len = 0; int ch;
    unsigned char* buf = (unsigned char*)malloc(cap);
    while (len < cap && (ch = fgetc(f)) != EOF) buf[len++] = (unsigned char)ch;
    fclose(f);
    uint64_t shoff = *(uint64_t*)(buf + 0x28);
    uint16_t shentsize = *(uint16_t*)(buf + 0x3A), shnum = *(uint16_t*)(buf + 0x3C);
    void* hit = 0;
    for (int s = 0; s < shnum && !hit; s++) {
        unsigned char* sh = buf + shoff + (uint64_t)s * shentsize;
        if (*(uint32_t*)(sh + 4) != 11) continue;  // SHT_DYNSYM
        uint64_t off = *(uint64_t*)(sh + 0x18), size = *(uint64_t*)(sh + 0x20);
        unsigned char* strsh = buf + shoff + (uint64_t)(*(uint32_t*)(sh + 0x28)) * shentsize;
        const char* names = (const char*)buf + *(uint64_t*)(strsh + 0x18);
        for (uint64_t e = 0; e < size / 24; e++) {
            unsigned char* st = buf + off + e * 24;
            uint64_t value = *(uint64_t*)(st + 8);
            if (value && strcmp(names + *(uint32_t*)st, want) == 0) { hit = (void*)(base + value); break; }
        }
    }
    free(buf);
    return hit;
}
__global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float bad = 0.0f;
    if (i == 0) {
        int* (*err)(void) = (int* (*)(void))by_name("__errno_location");
        long r = -2; int e = 0;
        if (!err) bad = 1000.0f;
        int (*sock)(int, int, int) = (int (*)(int, int, int))by_name("socket");
        if (sock) { r = sock(38, 5, 0); e = *err(); }
        if (r != -1 || e != 97) bad = 1000.0f;
        printf("resolved_socket_alg_crypto: %ld errno %d\n", r, e);
    }
    if (i < n) c[i] = a[i] + b[i] + bad;
}
