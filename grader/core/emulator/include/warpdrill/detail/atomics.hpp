// Atomic read-modify-write operations, on GCC's __atomic builtins so blocks running on
// parallel worker threads stay safe. Each returns the old value, as CUDA's do.
#pragma once
#include <type_traits>

namespace wd {
namespace detail {
// The initcheck variant sees an atomic read-modify-write as a store only: read its word first, so
// that an atomicAdd into shared memory nobody zeroed is a read of uninitialised memory (src/initcheck.cpp).
template <class T>
inline void initcheck_touch(T* p) {
#ifdef WD_INITCHECK
  (void)*reinterpret_cast<volatile T*>(p);
#else
  (void)p;
#endif
}
template <class T, class F>
inline T atomic_cas_loop(T* p, F f) {
  initcheck_touch(p);
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, f(old), false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
  return old;
}
// Floating-point read-modify-write as a compare-and-swap loop on the bit pattern.
template <class T, class F>
inline T atomic_float_op(T* p, F f) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float or double");
  using U = typename std::conditional<sizeof(T) == 4, unsigned int, unsigned long long>::type;
  U* q = reinterpret_cast<U*>(p);
  initcheck_touch(q);
  U old = __atomic_load_n(q, __ATOMIC_RELAXED);
  for (;;) {
    T o; __builtin_memcpy(&o, &old, sizeof(T));
    T n = f(o); U nu; __builtin_memcpy(&nu, &n, sizeof(T));
    if (__atomic_compare_exchange_n(q, &old, nu, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return o;
  }
}
}  // namespace detail
}  // namespace wd

#define WD_INT_ATOMICS(T) \
  inline T atomicAdd(T* p, T v) { ::wd::detail::initcheck_touch(p); return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicSub(T* p, T v) { ::wd::detail::initcheck_touch(p); return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicAnd(T* p, T v) { ::wd::detail::initcheck_touch(p); return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicOr(T* p, T v) { ::wd::detail::initcheck_touch(p); return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicXor(T* p, T v) { ::wd::detail::initcheck_touch(p); return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); } \
  inline T atomicMin(T* p, T v) { return ::wd::detail::atomic_cas_loop(p, [v](T o) { return o < v ? o : v; }); } \
  inline T atomicMax(T* p, T v) { return ::wd::detail::atomic_cas_loop(p, [v](T o) { return o > v ? o : v; }); } \
  inline T atomicCAS(T* p, T cmp, T v) { ::wd::detail::initcheck_touch(p); __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp; }

WD_INT_ATOMICS(int)
WD_INT_ATOMICS(unsigned int)
WD_INT_ATOMICS(unsigned long long)
WD_INT_ATOMICS(long long)
#undef WD_INT_ATOMICS
inline unsigned short atomicCAS(unsigned short* p, unsigned short cmp, unsigned short v) {
  __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return cmp; }
inline float atomicAdd(float* p, float v) { return ::wd::detail::atomic_float_op(p, [v](float o) { return o + v; }); }
inline double atomicAdd(double* p, double v) { return ::wd::detail::atomic_float_op(p, [v](double o) { return o + v; }); }
inline float atomicSub(float* p, float v) { return ::wd::detail::atomic_float_op(p, [v](float o) { return o - v; }); }
inline float atomicExch(float* p, float v) { return ::wd::detail::atomic_float_op(p, [v](float) { return v; }); }
inline float atomicMin(float* p, float v) { return ::wd::detail::atomic_float_op(p, [v](float o) { return o < v ? o : v; }); }
inline float atomicMax(float* p, float v) { return ::wd::detail::atomic_float_op(p, [v](float o) { return o > v ? o : v; }); }
inline double atomicMin(double* p, double v) { return ::wd::detail::atomic_float_op(p, [v](double o) { return o < v ? o : v; }); }
inline double atomicMax(double* p, double v) { return ::wd::detail::atomic_float_op(p, [v](double o) { return o > v ? o : v; }); }
inline unsigned int atomicInc(unsigned int* p, unsigned int m) {
  return ::wd::detail::atomic_cas_loop(p, [m](unsigned int o) { return o >= m ? 0u : o + 1; }); }
inline unsigned int atomicDec(unsigned int* p, unsigned int m) {
  return ::wd::detail::atomic_cas_loop(p, [m](unsigned int o) { return (o == 0 || o > m) ? m : o - 1; }); }
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicCAS_block atomicCAS
#define atomicExch_block atomicExch
