// cuda_fp16.h's basics: __half and __half2 (IEEE binary16, round-to-nearest-even conversions),
// their arithmetic, comparisons and conversions. Each operation is computed in float and rounded
// once to half, which gives the correctly rounded half result for + - * / (float has more than
// 2 x 11 + 2 bits); __hfma rounds a*b+c computed in double. Included by the prelude (before the
// student's code); `half`/`half2` themselves come with <cuda_fp16.h>, as on CUDA.
#pragma once

struct __half {
  unsigned short __x;
  __half() = default;
  __half(float f) { _Float16 h = static_cast<_Float16>(f); __builtin_memcpy(&__x, &h, 2); }
  __half(double d) : __half(static_cast<float>(d)) {}
  __half(int i) : __half(static_cast<float>(i)) {}
  __half(unsigned int i) : __half(static_cast<float>(i)) {}
  operator float() const { _Float16 h; __builtin_memcpy(&h, &__x, 2); return static_cast<float>(h); }
};
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  __half2(__half a, __half b) : x(a), y(b) {}
};
static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4, "__half is 2 bytes, __half2 4, as in CUDA");

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline __half __int2half_rn(int i) { return __half(static_cast<float>(i)); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline int __half2int_rn(__half h) { return static_cast<int>(nearbyintf(static_cast<float>(h))); }
inline int __half2int_rz(__half h) { return static_cast<int>(static_cast<float>(h)); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __ushort_as_half(unsigned short u) { __half h; h.__x = u; return h; }
inline __half __short_as_half(short s) { __half h; h.__x = static_cast<unsigned short>(s); return h; }

inline __half __hadd(__half a, __half b) { return __half(static_cast<float>(a) + static_cast<float>(b)); }
inline __half __hsub(__half a, __half b) { return __half(static_cast<float>(a) - static_cast<float>(b)); }
inline __half __hmul(__half a, __half b) { return __half(static_cast<float>(a) * static_cast<float>(b)); }
inline __half __hdiv(__half a, __half b) { return __half(static_cast<float>(a) / static_cast<float>(b)); }
inline __half __hfma(__half a, __half b, __half c) {
  return __half(static_cast<double>(static_cast<float>(a)) * static_cast<float>(b) + static_cast<float>(c)); }
inline __half __hneg(__half a) { return __ushort_as_half(static_cast<unsigned short>(a.__x ^ 0x8000u)); }
inline __half __habs(__half a) { return __ushort_as_half(static_cast<unsigned short>(a.__x & 0x7fffu)); }
inline __half __hmax(__half a, __half b) { return __half(fmaxf(static_cast<float>(a), static_cast<float>(b))); }
inline __half __hmin(__half a, __half b) { return __half(fminf(static_cast<float>(a), static_cast<float>(b))); }
inline bool __heq(__half a, __half b) { return static_cast<float>(a) == static_cast<float>(b); }
inline bool __hne(__half a, __half b) { return static_cast<float>(a) != static_cast<float>(b); }
inline bool __hlt(__half a, __half b) { return static_cast<float>(a) < static_cast<float>(b); }
inline bool __hle(__half a, __half b) { return static_cast<float>(a) <= static_cast<float>(b); }
inline bool __hgt(__half a, __half b) { return static_cast<float>(a) > static_cast<float>(b); }
inline bool __hge(__half a, __half b) { return static_cast<float>(a) >= static_cast<float>(b); }
inline bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
inline bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }
inline __half hsqrt(__half a) { return __half(sqrtf(static_cast<float>(a))); }
inline __half hexp(__half a) { return __half(expf(static_cast<float>(a))); }

inline __half operator+(__half a, __half b) { return __hadd(a, b); }
inline __half operator-(__half a, __half b) { return __hsub(a, b); }
inline __half operator*(__half a, __half b) { return __hmul(a, b); }
inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
inline __half operator-(__half a) { return __hneg(a); }
inline __half& operator+=(__half& a, __half b) { return a = __hadd(a, b); }
inline __half& operator-=(__half& a, __half b) { return a = __hsub(a, b); }
inline __half& operator*=(__half& a, __half b) { return a = __hmul(a, b); }
inline __half& operator/=(__half& a, __half b) { return a = __hdiv(a, b); }
inline bool operator==(__half a, __half b) { return __heq(a, b); }
inline bool operator!=(__half a, __half b) { return __hne(a, b); }
inline bool operator<(__half a, __half b) { return __hlt(a, b); }
inline bool operator<=(__half a, __half b) { return __hle(a, b); }
inline bool operator>(__half a, __half b) { return __hgt(a, b); }
inline bool operator>=(__half a, __half b) { return __hge(a, b); }

inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
inline float2 __half22float2(__half2 h) { return make_float2(static_cast<float>(h.x), static_cast<float>(h.y)); }
inline float __low2float(__half2 h) { return static_cast<float>(h.x); }
inline float __high2float(__half2 h) { return static_cast<float>(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __hadd2(__half2 a, __half2 b) { return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
inline __half2 __hsub2(__half2 a, __half2 b) { return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
inline __half2 __hmul2(__half2 a, __half2 b) { return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
inline __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
