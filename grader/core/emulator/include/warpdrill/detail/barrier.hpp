// Block barriers. Each call site has an identity (line + counter) so the scheduler can tell a
// divergent barrier (live threads at different sites) from a correct one.
#pragma once

namespace wd {
namespace detail {
// What a block barrier reduces over its threads' predicates: nothing (__syncthreads), their count
// (__syncthreads_count), their conjunction (_and) or their disjunction (_or).
enum class BarrierOp : int { kPlain = 0, kCount = 1, kAnd = 2, kOr = 3 };
// Returns the reduced predicate (0 for kPlain).
int block_barrier(int site, int line, BarrierOp op, int predicate);
void thread_fence(int line);
// `return;` in the kernel's body (rewrite.py): records where the thread left, so that lanes which
// skip a barrier and leave after it are told from a tail guard that leaves before it.
void kernel_exit(int line);
}  // namespace detail
}  // namespace wd

// What the macros below expand to in the student's code: only `wd`, `wd_`/`WD_` names (which the
// rewriter refuses to the student, so no macro of theirs can change them) and keywords.
namespace wd {
constexpr detail::BarrierOp wd_bar_plain = detail::BarrierOp::kPlain, wd_bar_count = detail::BarrierOp::kCount,
                            wd_bar_and = detail::BarrierOp::kAnd, wd_bar_or = detail::BarrierOp::kOr;
inline int wd_barrier(int site, int line, detail::BarrierOp op, int predicate) {
  return detail::block_barrier(site, line, op, predicate);
}
inline void wd_fence(int line) { detail::thread_fence(line); }
inline void wd_kernel_exit(int line) { detail::kernel_exit(line); }
}  // namespace wd

#define WD_SITE (__LINE__ * 4096 + __COUNTER__)
#define __syncthreads() ::wd::wd_barrier(WD_SITE, __LINE__, ::wd::wd_bar_plain, 0)
#define __syncthreads_count(p) ::wd::wd_barrier(WD_SITE, __LINE__, ::wd::wd_bar_count, (p) ? 1 : 0)
#define __syncthreads_and(p) ::wd::wd_barrier(WD_SITE, __LINE__, ::wd::wd_bar_and, (p) ? 1 : 0)
#define __syncthreads_or(p) ::wd::wd_barrier(WD_SITE, __LINE__, ::wd::wd_bar_or, (p) ? 1 : 0)
#define __threadfence() ::wd::wd_fence(__LINE__)
#define __threadfence_block() ::wd::wd_fence(__LINE__)
#define __threadfence_system() ::wd::wd_fence(__LINE__)
