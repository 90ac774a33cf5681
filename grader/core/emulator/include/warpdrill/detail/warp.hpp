// Warp operations on the 32 lanes of a warp (linear thread id / 32) named by a mask.
// A call blocks the calling fiber until every existing lane of the mask has arrived.
#pragma once
#include <cstring>

namespace wd {
namespace detail {
enum WarpOp { kSyncWarp, kShflIdx, kShflUp, kShflDown, kShflXor, kBallot, kAny, kAll };
unsigned long long warp_op(int site, int line, int op, unsigned mask, unsigned long long value, int arg, int width);
unsigned active_mask();
unsigned lane_id();

template <class T>
inline T shfl(int site, int line, int op, unsigned mask, T v, int arg, int width) {
  static_assert(sizeof(T) <= 8, "__shfl_*_sync works on values of at most 8 bytes");
  unsigned long long raw = 0;
  std::memcpy(&raw, &v, sizeof(T));
  raw = warp_op(site, line, op, mask, raw, arg, width);
  T out;
  std::memcpy(&out, &raw, sizeof(T));
  return out;
}
}  // namespace detail
}  // namespace wd

#define __syncwarp(...) ((void)::wd::detail::warp_op(WD_SITE, __LINE__, ::wd::detail::kSyncWarp, ::wd::detail::mask_or_full(__VA_ARGS__), 0, 0, 32))
namespace wd { namespace detail {
inline unsigned mask_or_full() { return 0xffffffffu; }
inline unsigned mask_or_full(unsigned m) { return m; }
}}
#define WD_WIDTH(...) ::wd::detail::width_or_32(__VA_ARGS__)
namespace wd { namespace detail {
inline int width_or_32() { return 32; }
inline int width_or_32(int w) { return w; }
}}
#define __shfl_sync(m, v, s, ...) ::wd::detail::shfl(WD_SITE, __LINE__, ::wd::detail::kShflIdx, (m), (v), (s), WD_WIDTH(__VA_ARGS__))
#define __shfl_up_sync(m, v, d, ...) ::wd::detail::shfl(WD_SITE, __LINE__, ::wd::detail::kShflUp, (m), (v), (d), WD_WIDTH(__VA_ARGS__))
#define __shfl_down_sync(m, v, d, ...) ::wd::detail::shfl(WD_SITE, __LINE__, ::wd::detail::kShflDown, (m), (v), (d), WD_WIDTH(__VA_ARGS__))
#define __shfl_xor_sync(m, v, d, ...) ::wd::detail::shfl(WD_SITE, __LINE__, ::wd::detail::kShflXor, (m), (v), (d), WD_WIDTH(__VA_ARGS__))
#define __ballot_sync(m, p) ((unsigned)::wd::detail::warp_op(WD_SITE, __LINE__, ::wd::detail::kBallot, (m), (p) ? 1 : 0, 0, 32))
#define __any_sync(m, p) ((int)::wd::detail::warp_op(WD_SITE, __LINE__, ::wd::detail::kAny, (m), (p) ? 1 : 0, 0, 32))
#define __all_sync(m, p) ((int)::wd::detail::warp_op(WD_SITE, __LINE__, ::wd::detail::kAll, (m), (p) ? 1 : 0, 0, 32))
#define __activemask() (::wd::detail::active_mask())
