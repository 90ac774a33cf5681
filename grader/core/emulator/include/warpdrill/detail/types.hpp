// dim3, uint3 and CUDA's vector types with their make_* constructors.
#pragma once

struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define WD_VEC2(T, N, A) struct alignas(A) N##2 { T x, y; }; \
  inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define WD_VEC3(T, N) struct N##3 { T x, y, z; }; \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define WD_VEC4(T, N, A) struct alignas(A) N##4 { T x, y, z, w; }; \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }

WD_VEC2(float, float, 8) WD_VEC3(float, float) WD_VEC4(float, float, 16)
WD_VEC2(double, double, 16) WD_VEC3(double, double) WD_VEC4(double, double, 16)
WD_VEC2(int, int, 8) WD_VEC3(int, int) WD_VEC4(int, int, 16)
WD_VEC2(unsigned int, uint, 8) WD_VEC4(unsigned int, uint, 16)
WD_VEC2(char, char, 2) WD_VEC3(char, char) WD_VEC4(char, char, 4)
WD_VEC2(unsigned char, uchar, 2) WD_VEC3(unsigned char, uchar) WD_VEC4(unsigned char, uchar, 4)
WD_VEC2(short, short, 4) WD_VEC4(short, short, 8)
WD_VEC2(long long, longlong, 16)
inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { return uint3{x, y, z}; }
#undef WD_VEC2
#undef WD_VEC3
#undef WD_VEC4

typedef struct { int dummy; } cudaStream_t_;
typedef cudaStream_t_* cudaStream_t;
enum cudaError_t { cudaSuccess = 0 };
static_assert(sizeof(dim3) == sizeof(uint3), "dim3 and uint3 share a layout (blockDim reads a uint3 as dim3)");
