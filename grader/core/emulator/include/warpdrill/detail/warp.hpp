// Warp operations on the 32 lanes of a warp (linear thread id / 32) named by a mask.
// A call blocks the calling fiber until every existing lane of the mask has arrived.
#pragma once
#include <cstring>

namespace wd {
namespace detail {
// kCoalesce: cooperative_groups::coalesced_threads(), the lanes that arrive together (result: their mask).
enum WarpOp { kSyncWarp, kShflIdx, kShflUp, kShflDown, kShflXor, kBallot, kAny, kAll, kCoalesce };
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

// What the macros below expand to in the student's code: only `wd`, `wd_`/`WD_` names and keywords.
namespace wd {
enum WdWarpOp { wd_sync_warp = detail::kSyncWarp, wd_shfl_idx = detail::kShflIdx, wd_shfl_up = detail::kShflUp,
                wd_shfl_down = detail::kShflDown, wd_shfl_xor = detail::kShflXor, wd_ballot = detail::kBallot,
                wd_any = detail::kAny, wd_all = detail::kAll };
inline unsigned long long wd_warp_op(int site, int line, int op, unsigned mask, unsigned long long value, int arg, int width) {
  return detail::warp_op(site, line, op, mask, value, arg, width);
}
template <class T>
inline T wd_shfl(int site, int line, int op, unsigned mask, T v, int arg, int width) {
  return detail::shfl(site, line, op, mask, v, arg, width);
}
inline unsigned wd_mask() { return 0xffffffffu; }
inline unsigned wd_mask(unsigned m) { return m; }
inline int wd_width() { return 32; }
inline int wd_width(int w) { return w; }
inline unsigned wd_active_mask() { return detail::active_mask(); }
}  // namespace wd

#define __syncwarp(...) ((void)::wd::wd_warp_op(WD_SITE, __LINE__, ::wd::wd_sync_warp, ::wd::wd_mask(__VA_ARGS__), 0, 0, 32))
namespace wd { namespace detail {
inline unsigned mask_or_full() { return 0xffffffffu; }
inline unsigned mask_or_full(unsigned m) { return m; }
}}
#define WD_WIDTH(...) ::wd::wd_width(__VA_ARGS__)
namespace wd { namespace detail {
inline int width_or_32() { return 32; }
inline int width_or_32(int w) { return w; }
}}
#define __shfl_sync(m, v, s, ...) ::wd::wd_shfl(WD_SITE, __LINE__, ::wd::wd_shfl_idx, (m), (v), (s), WD_WIDTH(__VA_ARGS__))
#define __shfl_up_sync(m, v, d, ...) ::wd::wd_shfl(WD_SITE, __LINE__, ::wd::wd_shfl_up, (m), (v), (d), WD_WIDTH(__VA_ARGS__))
#define __shfl_down_sync(m, v, d, ...) ::wd::wd_shfl(WD_SITE, __LINE__, ::wd::wd_shfl_down, (m), (v), (d), WD_WIDTH(__VA_ARGS__))
#define __shfl_xor_sync(m, v, d, ...) ::wd::wd_shfl(WD_SITE, __LINE__, ::wd::wd_shfl_xor, (m), (v), (d), WD_WIDTH(__VA_ARGS__))
#define __ballot_sync(m, p) ((unsigned)::wd::wd_warp_op(WD_SITE, __LINE__, ::wd::wd_ballot, (m), (p) ? 1 : 0, 0, 32))
#define __any_sync(m, p) ((int)::wd::wd_warp_op(WD_SITE, __LINE__, ::wd::wd_any, (m), (p) ? 1 : 0, 0, 32))
#define __all_sync(m, p) ((int)::wd::wd_warp_op(WD_SITE, __LINE__, ::wd::wd_all, (m), (p) ? 1 : 0, 0, 32))
#define __activemask() (::wd::wd_active_mask())
