// Private declarations of the fiber scheduler (fiber.cpp, barrier.cpp, warp.cpp, deadlock.cpp,
// scheduler.cpp): a block's threads as fibers, their states, and what each part offers the others.
//
// Every CUDA thread of a block is a Boost.Context fiber. A scheduler pass resumes each runnable
// fiber until it blocks (barrier, warp op), yields (loop budget) or exits; after the pass it
// releases barriers whose participants have all arrived. When nothing can run and nothing can be
// released the block is deadlocked, provably. The fast path runs threads as plain calls instead.
#pragma once
#include <boost/context/fiber.hpp>
#include <map>
#include <string>
#include <vector>

#include "runtime.hpp"
#include "tsan.hpp"
#include "warpdrill/detail/barrier.hpp"

namespace wd {
namespace rt {
namespace ctx = boost::context;

constexpr long kFiberQuantum = 256;  // loop iterations between yields in fiber mode
constexpr long kFastQuantum = 1 << 20;  // loop iterations between time checks on the fast path
constexpr long long kFastBudget = 1LL << 28;  // loop iterations per thread before rerunning with fibers

enum State { kRunnable, kAtBarrier, kAtWarp, kExited, kAtGrid };  // kAtGrid: in grid.sync() (cooperative)

struct Thread {
  ctx::fiber fiber;  // the suspended CUDA thread
  ctx::fiber back;  // the scheduler, while this thread runs
  uint3 tid;
  int linear = 0;
  State state = kRunnable;
  // barrier
  int site = 0, line = 0, pred = 0, result = 0;
  detail::BarrierOp op = detail::BarrierOp::kPlain;
  // warp op
  unsigned wmask = 0;
  int wsite = 0, wline = 0, wop = 0, warg = 0, wwidth = 32;
  unsigned long long wvalue = 0, wresult = 0;
  // A lane of this lane's mask seen waiting in another warp operation or with another mask (warp.cpp):
  // its lane, line and mask (wheld_line 0: none). Reported if this operation completes after all.
  int wheld_lane = 0, wheld_line = 0;
  unsigned wheld_mask = 0;
  int last_line = 0;
  // Bit (site % 64) of every barrier site this thread has passed (WD_SITE's __COUNTER__ part: one bit per
  // call site for the first 64 of a file): a `return` above a barrier it passed before is a skip of it.
  unsigned long long passed_sites = 0;
  unsigned long long exit_generation = ~0ULL;  // barrier generation during which it exited
  int exit_line = 0;  // the line of the `return;` it left the kernel by (0: it ran to the end)
  const char* stack_lo = nullptr;  // its fiber's stack [stack_lo, stack_hi)
  const char* stack_hi = nullptr;
  WD_TSAN_ONLY(void* tsan = nullptr;)
};

struct Block {
  uint3 bid;
  unsigned long long linear_bid = 0;
  std::vector<Thread> threads;
  int live = 0;
  unsigned long long events = 0;  // barrier arrivals, exits, warp-op completions
  int at_barrier = 0;  // threads waiting at a block barrier
  int at_warp = 0;  // threads waiting in a warp operation
  int at_grid = 0;  // threads waiting in grid.sync() (a cooperative launch)
  unsigned long long barrier_generation = 0;
  char barrier_sync[2];  // TSan sync objects, one per barrier generation parity
  // Once live threads have met at different barriers (the first time in this block): the site
  // each thread waited at then (0: none), the sites every thread reached from then on, and the
  // report as first written, so that at the end of the block it can name the barrier that only
  // some threads reach (refine_divergence).
  bool diverged = false;
  std::vector<int> div_site;
  std::map<int, std::vector<char>> reached;
  std::map<int, int> site_line;
  std::string div_sites_json;
  Diag divergence;
  char warp_sync[32];  // TSan sync objects, one per warp
};

// The block and thread this worker runs now (scheduler.cpp).
extern thread_local Block* t_block;
extern thread_local Thread* t_thread;

// Loop iterations the running thread has made since it was last called or resumed outside the
// fiber scheduler (the fast path, coro mode): past kFastBudget the test reruns with fibers.
extern thread_local long long t_fast_ticks;

// Each thread of the block in thread order (x fastest), as the fast path calls them and coro mode
// starts and resumes them: its threadIdx set and its loop budget fresh, then f(its linear index).
template <class F>
void for_each_thread_in_order(F&& f) {
  const dim3 bd = g_job.block;
  unsigned i = 0;
  for (unsigned z = 0; z < bd.z; ++z)
    for (unsigned y = 0; y < bd.y; ++y)
      for (unsigned x = 0; x < bd.x; ++x, ++i) {
        detail::t_ctx.thread_idx = uint3{x, y, z};
        detail::t_ctx.countdown = kFastQuantum;
        t_fast_ticks = 0;
        f(i);
      }
}

// ---- coroutine mode (coro.cpp) ----
void run_block_coro();  // the running block's threads as coroutine frames
// Whether `addr` lies in the running thread's coroutine frame (its locals); the block's barrier
// generation so far (0 outside coro mode).
bool in_coro_frame(const char* addr);
unsigned long long coro_generation();

// ---- non-atomic read-modify-writes (rmw.cpp) ----
// The frame the fast path calls each thread from: the thread's locals lie below it.
extern thread_local const char* t_fast_stack_top;

// ---- fibers (fiber.cpp) ----
void yield_to_scheduler();  // suspend t_thread, back to resume_block_fibers
// Park t_thread (its state and operands already set) until the scheduler releases it: count an
// event and one more thread in `waiting` (the block's at_barrier or at_warp); check mode releases
// the TSan object `sync` on arrival and acquires it on departure (CUDA's happens-before edge).
void wait_for_release(int& waiting, char* sync);
[[noreturn]] void rerun_with_fibers();
extern thread_local int t_worker;  // this OS thread's worker index (run_worker)
void start_block_fibers(Block& b);  // a fiber per thread of the block, none started yet
void retire_block_fibers(Block& b);  // the block has ended (check mode: its TSan fibers are kept a while)
#ifdef WD_TSAN
extern thread_local void* t_sched_fiber;
extern char g_start;
extern char g_block_end;
extern char g_grid_sync;
#endif

// ---- barriers (barrier.cpp) ----
bool release_block_barrier(Block& b);  // true when the block's barrier let its threads through
void refine_divergence(Block& b);  // at the end of a block that diverged

// ---- warp operations (warp.cpp) ----
bool release_warps(Block& b);  // true when some warp operation completed
std::string mask_hex(unsigned m);

// ---- deadlock and timeout reports (deadlock.cpp) ----
std::string tid_str(uint3 v);
[[noreturn]] void report_deadlock(Block& b, bool proven);
[[noreturn]] void report_timeout(uint3 bid, uint3 tid, int line);
}  // namespace rt
}  // namespace wd
