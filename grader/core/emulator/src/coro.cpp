// Coroutine mode: the plain runs of a kernel whose only synchronisation is __syncthreads() in its own
// body (coro.py decides and writes the kernel's coroutine copy; include/warpdrill/detail/coro.hpp).
//
// A block's threads are coroutine frames bump-allocated in one arena per worker, reset per block, so
// a barrier round walks contiguous memory: the fiber scheduler's per-thread stacks (64 KiB each, their
// tops cold again at every round) and its two stack switches per thread and barrier are gone. Each
// thread runs from the kernel's start to its first barrier as it is created, in thread order, then
// every round resumes all of them to the next barrier, in the same order: the fiber scheduler's
// schedule for a block without divergence, so outputs are the same.
//
// Only the regular case runs here. Threads at different barriers, threads that have exited while
// others wait at a barrier (a tail guard above a barrier, or a divergent one), a loop that may wait
// for another thread (the fast path's tick budget), a non-atomic update of a word another thread of
// the block updated since their last barrier (rmw.cpp): the test is rerun with fibers
// (kExitRerunFibers), whose scheduler judges all of these. Nothing here decides a verdict.
#include <sys/mman.h>

#include <coroutine>
#include <vector>

#include "scheduler.hpp"

namespace wd {
namespace rt {
namespace {

struct CoThread {
  void* frame = nullptr;  // std::coroutine_handle<>::address()
  const char* lo = nullptr;  // its frame: [lo, hi)
  const char* hi = nullptr;
  int site = 0, line = 0;  // the barrier it waits at (0: none: running or finished)
};

// Frames of one block, bump-allocated in chunks that stay mapped for the worker's life.
struct Arena {
  std::vector<char*> chunks;
  std::size_t chunk = 0, used = 0;
  static constexpr std::size_t kChunkBytes = 4u << 20;
  void reset() { chunk = 0, used = 0; }
  void* alloc(std::size_t bytes) {
    bytes = (bytes + 63) & ~static_cast<std::size_t>(63);  // a cache line each: no frame shares one
    // Locals this large overflow a fiber's 64 KiB stack: the fibers report it (STACK_OVERFLOW).
    if (bytes > kChunkBytes) rerun_with_fibers();
    if (chunks.empty() || used + bytes > kChunkBytes) {
      if (!chunks.empty()) chunk++, used = 0;
      if (chunk == chunks.size()) {
        void* p = mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) finish("internal", "cannot map a coroutine arena", {});
        chunks.push_back(static_cast<char*>(p));
      }
    }
    char* p = chunks[chunk] + used;
    used += bytes;
    return p;
  }
};

thread_local Arena t_arena;
thread_local std::vector<CoThread> t_co;
thread_local CoThread* t_co_cur = nullptr;
thread_local unsigned long long t_co_generation = 0;

std::coroutine_handle<> handle(const CoThread& t) { return std::coroutine_handle<>::from_address(t.frame); }

// Each thread of the block in thread order, as the fiber scheduler's pass goes.
template <class F>
void each_thread(F&& f) {
  for_each_thread_in_order([&](unsigned i) {
    t_co_cur = &t_co[i];
    f(t_co[i]);
  });
  t_co_cur = nullptr;
}

}  // namespace

bool in_coro_frame(const char* addr) { return t_co_cur && addr >= t_co_cur->lo && addr < t_co_cur->hi; }
unsigned long long coro_generation() { return t_co_generation; }

void run_block_coro() {
  const dim3 bd = g_job.block;
  t_fast_stack_top = static_cast<const char*>(__builtin_frame_address(0));
  t_arena.reset();
  t_co.assign(static_cast<std::size_t>(bd.x) * bd.y * bd.z, CoThread{});
  t_co_generation = 0;
  each_thread([](CoThread& t) {
    t.frame = wd_user_coro();
    if (!t.frame) finish("internal", "coro mode without the kernel's coroutine copy", {});
  });
  for (;;) {
    std::size_t done = 0;
    for (const auto& t : t_co) done += handle(t).done();
    if (done == t_co.size()) break;
    if (done) rerun_with_fibers();  // some threads left while others wait at a barrier
    for (const auto& t : t_co)
      if (t.site != t_co[0].site) rerun_with_fibers();  // threads at different barriers
    if (over_time_limit()) report_timeout(detail::t_ctx.block_idx, uint3{0, 0, 0}, t_co[0].line);
    t_co_generation++;
    each_thread([](CoThread& t) {
      t.site = 0;
      handle(t).resume();
    });
  }
  for (const auto& t : t_co) handle(t).destroy();
}

}  // namespace rt

namespace detail {

void* coro_frame_alloc(std::size_t bytes) {
  using namespace rt;
  void* p = t_arena.alloc(bytes);
  if (t_co_cur) t_co_cur->lo = static_cast<const char*>(p), t_co_cur->hi = static_cast<const char*>(p) + bytes;
  return p;
}

void coro_arrive(int site, int line) {
  using namespace rt;
  if (!t_co_cur) rerun_with_fibers();  // the copy's barrier outside coro mode: cannot happen
  t_co_cur->site = site;
  t_co_cur->line = line;
}

}  // namespace detail
}  // namespace wd
