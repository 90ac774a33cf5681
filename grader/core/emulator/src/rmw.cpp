// Where another thread may run between the load and the store of a non-atomic read-modify-write
// (include/warpdrill/detail/rmw.hpp; the rewriter, rmw.py, marks them). Plain runs only: the check
// pass (ThreadSanitizer), the write map and the initcheck keep their schedules.
//
// Each worker remembers, per word (a direct-mapped table: a collision forgets a word, so an
// interleaving is missed, never invented), which thread of which block last updated it and in
// which barrier generation. A thread updating a word that another thread of its block updated
// since their last barrier (or a thread of another co-resident block) races with it:
// - on the fast path (threads as plain calls, one after another) and in coro mode (coroutine frames
//   between barriers) it cannot interleave, so the test reruns with fibers (kExitRerunFibers), as a
//   loop that waits does;
// - with fibers the thread yields between its load and its store, so the threads after it in the
//   scheduler's pass load the same old value and their stores overwrite each other: a block's
//   `count[0] += 1` counts 2, where a GPU's warps count about one each (the first thread's update
//   stands: it cannot know that others will follow, and yielding at every first update would slow
//   every tree reduction).
// Threads that never share a word (`y[i] += a * x[i]`, `s[t] += s[t + stride]` between barriers)
// are never made to rerun, and a yield is a schedule the hardware can take: a kernel without races
// computes what it did before. The schedule is the scheduler's fixed order, so a run is repeatable.
//
// Blocks run on several worker threads at once. Two of them updating one word without atomics
// would race in this process too, and the count would change from run to run; a word table shared
// by the workers (relaxed atomics: a lost entry misses a conflict, never invents one) sees the
// second worker, and the test reruns on one worker thread (kExitRerunSerial), where the schedule is
// fixed again. Each worker's first update of a word is checked before it stores, so no racy store
// of two workers has happened when the run is abandoned.
#include <cstdlib>

#include "scheduler.hpp"

namespace wd {
namespace rt {

thread_local const char* t_fast_stack_top = nullptr;
thread_local int t_worker = 0;

namespace {

struct RmwOwner {
  const void* addr = nullptr;
  unsigned long long block = 0, generation = 0;
  int thread = -1;
};
constexpr std::size_t kRmwSlots = 1 << 12;
thread_local RmwOwner* t_rmw = nullptr;

RmwOwner& slot(const void* addr) {
  if (!t_rmw) {
    t_rmw = new RmwOwner[kRmwSlots];
  }
  auto h = (reinterpret_cast<std::uintptr_t>(addr) >> 2) * 0x9E3779B97F4A7C15ULL;
  return t_rmw[h >> (64 - 12)];
}

// Per word: (address >> 2) << 8 | (worker + 1), for runs with more than one worker thread.
constexpr std::size_t kSharedSlots = 1 << 14;
std::uint64_t g_word_worker[kSharedSlots];

// Exits for a serial rerun when another worker thread updated this word (see the top).
void check_other_workers(const void* addr) {
  if (g_job.workers <= 1) return;
  auto word = reinterpret_cast<std::uintptr_t>(addr) >> 2;
  std::uint64_t mine = (static_cast<std::uint64_t>(word) << 8) | static_cast<std::uint64_t>((t_worker + 1) & 0xff);
  std::uint64_t& e = g_word_worker[(word * 0x9E3779B97F4A7C15ULL) >> (64 - 14)];
  std::uint64_t seen = __atomic_load_n(&e, __ATOMIC_RELAXED);
  if (seen == mine) return;
  if (seen >> 8 == mine >> 8) _exit(kExitRerunSerial);
  __atomic_store_n(&e, mine, __ATOMIC_RELAXED);
}

unsigned long long fast_block_id() {
  const auto& c = detail::t_ctx;
  return (1ULL * c.block_idx.z * c.grid_dim.y + c.block_idx.y) * c.grid_dim.x + c.block_idx.x;
}

int fast_thread_id() {
  const auto& c = detail::t_ctx;
  return static_cast<int>((c.thread_idx.z * c.block_dim.y + c.thread_idx.y) * c.block_dim.x + c.thread_idx.x);
}

}  // namespace
}  // namespace rt

namespace detail {

void rmw_point(const volatile void* vaddr) {
  const void* addr = const_cast<const void*>(vaddr);
#if defined(WD_TSAN) || defined(WD_WRITEMAP) || defined(WD_INITCHECK)
  (void)addr;
#else
  using namespace rt;
  if (g_start_s == 0) return;  // a static initialiser, before the launch
  if (!g_job.fibers) {
    // The threads of a block run one after another on this stack: their locals share addresses.
    // In coro mode a thread's own locals are in its coroutine frame, and an update of a word another
    // thread updated in an earlier barrier interval is ordered by that barrier.
    const char* a = static_cast<const char*>(addr);
    if (a >= static_cast<const char*>(__builtin_frame_address(0)) && a < t_fast_stack_top) return;
    if (in_coro_frame(a)) return;
    check_other_workers(addr);
    RmwOwner& e = slot(addr);
    unsigned long long block = fast_block_id(), generation = coro_generation();
    int thread = fast_thread_id();
    if (e.addr == addr && e.block == block && e.generation == generation && e.thread != thread) rerun_with_fibers();
    e.addr = addr, e.block = block, e.generation = generation, e.thread = thread;
    return;
  }
  Thread* me = t_thread;
  Block* b = t_block;
  if (!me || !b) return;
  const char* a = static_cast<const char*>(addr);
  if (a >= me->stack_lo && a < me->stack_hi) return;  // its own locals
  check_other_workers(addr);
  RmwOwner& e = slot(addr);
  bool coresident = (g_job.cooperative || g_job.coresident) && 1ULL * g_job.grid.x * g_job.grid.y * g_job.grid.z > 1;
  bool racing = e.addr == addr && (e.block != b->linear_bid ? coresident
                                                             : e.generation == b->barrier_generation && e.thread != me->linear);
  e.addr = addr, e.block = b->linear_bid, e.generation = b->barrier_generation, e.thread = me->linear;
  if (racing) yield_to_scheduler();
#endif
}

}  // namespace detail
}  // namespace wd
