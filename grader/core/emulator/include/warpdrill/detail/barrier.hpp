// Block barriers. Each call site has an identity (line + counter) so the scheduler can tell a
// divergent barrier (live threads at different sites) from a correct one.
#pragma once

namespace wd {
namespace detail {
// op: 0 plain, 1 count, 2 and, 3 or. Returns the reduced predicate.
int block_barrier(int site, int line, int op, int predicate);
void thread_fence(int line);
// `return;` in the kernel's body (rewrite.py): records where the thread left, so that lanes which
// skip a barrier and leave after it are told from a tail guard that leaves before it.
void kernel_exit(int line);
}  // namespace detail
}  // namespace wd

// What the macros below expand to in the student's code: only `wd`, `wd_`/`WD_` names (which the
// rewriter refuses to the student, so no macro of theirs can change them) and keywords.
namespace wd {
inline int wd_barrier(int site, int line, int op, int predicate) { return detail::block_barrier(site, line, op, predicate); }
inline void wd_fence(int line) { detail::thread_fence(line); }
inline void wd_kernel_exit(int line) { detail::kernel_exit(line); }
}  // namespace wd

#define WD_SITE (__LINE__ * 4096 + __COUNTER__)
#define __syncthreads() ::wd::wd_barrier(WD_SITE, __LINE__, 0, 0)
#define __syncthreads_count(p) ::wd::wd_barrier(WD_SITE, __LINE__, 1, (p) ? 1 : 0)
#define __syncthreads_and(p) ::wd::wd_barrier(WD_SITE, __LINE__, 2, (p) ? 1 : 0)
#define __syncthreads_or(p) ::wd::wd_barrier(WD_SITE, __LINE__, 3, (p) ? 1 : 0)
#define __threadfence() ::wd::wd_fence(__LINE__)
#define __threadfence_block() ::wd::wd_fence(__LINE__)
#define __threadfence_system() ::wd::wd_fence(__LINE__)
