// The current CUDA thread: threadIdx, blockIdx, blockDim, gridDim and the loop yield point.
// One context per worker OS thread; the scheduler rewrites it before it resumes a fiber, so a
// kernel reads its ids with a single thread-local load.
#pragma once

namespace wd {
namespace detail {
struct Context {
  uint3 thread_idx;
  uint3 block_idx;
  uint3 block_dim;  // uint3, not dim3: a trivial type needs no TLS init wrapper on every access
  uint3 grid_dim;
  long countdown;  // loop iterations until the next yield point
  int line;  // last loop line seen by the slow path (spinning threads are reported there)
};
extern thread_local Context t_ctx;
void tick_slow(int line);  // yields to the scheduler, enforces time limits
}  // namespace detail

#ifdef WD_TSAN
// Race checking: the countdown is shared by the fibers of an OS thread, so it must be touched
// only by (uninstrumented) runtime code.
namespace detail { void tick_call(int line); }
inline void tick(int line) { detail::tick_call(line); }
#else
inline void tick(int line) {
  if (__builtin_expect(--detail::t_ctx.countdown < 0, 0)) detail::tick_slow(line);
}
#endif

inline void wd_tick(int line) { tick(line); }
// What the macros expand to in the student's code: only `wd`/`wd_` names, which no macro of the
// student's can change (the rewriter refuses them), so `#define thread_idx ...` is harmless.
inline const ::uint3& wd_thread_idx() { return detail::t_ctx.thread_idx; }
inline const ::uint3& wd_block_idx() { return detail::t_ctx.block_idx; }
inline const ::dim3& wd_block_dim() { return reinterpret_cast<const ::dim3&>(detail::t_ctx.block_dim); }
inline const ::dim3& wd_grid_dim() { return reinterpret_cast<const ::dim3&>(detail::t_ctx.grid_dim); }
}  // namespace wd

#define threadIdx (::wd::wd_thread_idx())
#define blockIdx (::wd::wd_block_idx())
#define blockDim (::wd::wd_block_dim())
#define gridDim (::wd::wd_grid_dim())
constexpr int warpSize = 32;
