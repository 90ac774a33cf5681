// cuRAND's device API for its default generator, XORWOW (curand_kernel.h): curandState,
// curand_init, curand, curand_uniform, curand_normal(2), curand_log_normal, skipahead(_sequence).
// The same sequences as cuRAND: the seed scrambling and the step are cuRAND's, and subsequence i
// starts 2^67 * i steps further on, jumped with powers of the step's GF(2) matrix (computed once
// per process by the runtime, src/curand.cpp) exactly as cuRAND's precomputed tables do.
// Included by the prelude, before the student's code.
#pragma once

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

namespace wd {
namespace detail {
// v <- A^(n * 2^base) v for the XORWOW step A (base 0: skipahead, base 67: skipahead_sequence).
void xorwow_jump(unsigned int* v, unsigned long long n, int base);
constexpr float kCurand2Pow32Inv = 2.3283064e-10f;
constexpr float kCurand2Pow32Inv2Pi = 2.3283064e-10f * 6.2831855f;
}  // namespace detail
}  // namespace wd

inline unsigned int curand(curandStateXORWOW* state) {
  unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437;
  return state->v[4] + state->d;
}
inline void skipahead(unsigned long long n, curandStateXORWOW* state) {
  ::wd::detail::xorwow_jump(state->v, n, 0);
  state->d += 362437u * static_cast<unsigned int>(n);
}
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW* state) {
  ::wd::detail::xorwow_jump(state->v, n, 67);  // d moves by 362437 * 2^67 * n = 0 modulo 2^32
}
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW* state) {
  unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0;
  unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  if (subsequence) skipahead_sequence(subsequence, state);
  if (offset) skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}
inline float curand_uniform(curandStateXORWOW* state) {
  return curand(state) * ::wd::detail::kCurand2Pow32Inv + (::wd::detail::kCurand2Pow32Inv / 2.0f);
}
inline float2 curand_normal2(curandStateXORWOW* state) {
  unsigned int x = curand(state), y = curand(state);
  float u = x * ::wd::detail::kCurand2Pow32Inv + (::wd::detail::kCurand2Pow32Inv / 2.0f);
  float w = y * ::wd::detail::kCurand2Pow32Inv2Pi + (::wd::detail::kCurand2Pow32Inv2Pi / 2.0f);
  float s = sqrtf(-2.0f * logf(u));
  return make_float2(sinf(w) * s, cosf(w) * s);
}
inline float curand_normal(curandStateXORWOW* state) {
  if (state->boxmuller_flag != 1) {
    float2 pair = curand_normal2(state);
    state->boxmuller_extra = pair.y;
    state->boxmuller_flag = 1;
    return pair.x;
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}
inline float curand_log_normal(curandStateXORWOW* state, float mean, float stddev) {
  return expf(mean + stddev * curand_normal(state));
}
