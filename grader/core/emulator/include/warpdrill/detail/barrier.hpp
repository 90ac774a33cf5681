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

#define WD_SITE (__LINE__ * 4096 + __COUNTER__)
#define __syncthreads() ::wd::detail::block_barrier(WD_SITE, __LINE__, 0, 0)
#define __syncthreads_count(p) ::wd::detail::block_barrier(WD_SITE, __LINE__, 1, (p) ? 1 : 0)
#define __syncthreads_and(p) ::wd::detail::block_barrier(WD_SITE, __LINE__, 2, (p) ? 1 : 0)
#define __syncthreads_or(p) ::wd::detail::block_barrier(WD_SITE, __LINE__, 3, (p) ? 1 : 0)
#define __threadfence() ::wd::detail::thread_fence(__LINE__)
#define __threadfence_block() ::wd::detail::thread_fence(__LINE__)
#define __threadfence_system() ::wd::detail::thread_fence(__LINE__)
