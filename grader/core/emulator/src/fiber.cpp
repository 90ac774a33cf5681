// Fibers: every CUDA thread of a block is a Boost.Context fiber on a pooled, guarded stack; in
// check mode each is a ThreadSanitizer fiber too, kept a while after its block ends.
#include <sys/mman.h>

#include <cstdio>

#include "scheduler.hpp"

namespace wd {
namespace rt {
namespace {

constexpr std::size_t kStackSize = 64 * 1024;
constexpr std::size_t kGuard = 4096;

struct StackPool {
  std::vector<void*> free_stacks;
  unsigned color = 0;
  const char* last_lo = nullptr;  // the stack allocate() gave last
  const char* last_hi = nullptr;
  ctx::stack_context allocate() {
    char* base;
    if (free_stacks.empty()) {
      void* p = mmap(nullptr, kStackSize + kGuard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) finish("internal", "cannot map a fiber stack", {});
      base = static_cast<char*>(p);
      mprotect(base, kGuard, PROT_NONE);
      register_region(Region{base, base + kGuard, base, 0, 1, kStackGuard, "stack", 0});
    } else {
      base = static_cast<char*>(free_stacks.back());
      free_stacks.pop_back();
#ifdef WD_TSAN
      // A reused stack held another block's thread: blocks are not ordered with each other in the
      // race check (so that races between blocks on global memory are seen), so forget what TSan
      // knew about this memory. A fixed mapping made while TSan ignores accesses resets its shadow.
      __tsan_ignore_thread_begin();
      mmap(base + kGuard, kStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
      __tsan_ignore_thread_end();
#endif
    }
    // Stagger the stack tops by a cache line per fiber: page-aligned tops would all map to the
    // same L1 sets, and a barrier round touches every fiber's top of stack.
    std::size_t offset = (color++ % 63) * 64;
    ctx::stack_context sc;
    sc.size = kStackSize - offset;
    sc.sp = base + kGuard + kStackSize - offset;
    last_lo = base + kGuard, last_hi = static_cast<char*>(sc.sp);
    return sc;
  }
  void deallocate(ctx::stack_context& sc) {
    auto top = (reinterpret_cast<std::uintptr_t>(sc.sp) + kGuard - 1) & ~(static_cast<std::uintptr_t>(kGuard) - 1);
    free_stacks.push_back(reinterpret_cast<char*>(top) - kStackSize - kGuard);
  }
};

struct PoolAllocator {
  StackPool* pool;
  ctx::stack_context allocate() { return pool->allocate(); }
  void deallocate(ctx::stack_context& sc) { pool->deallocate(sc); }
};

thread_local StackPool t_pool;

#ifdef WD_TSAN
// The TSan fibers of the blocks that ran last. TSan cannot restore the stack of an access made
// by a destroyed thread, so when each fiber was destroyed as its thread exited, a race with a
// thread that had already exited (`s[t] = t; out[t] = s[t + 100];`, a transpose with no barrier)
// came without its second line and was dropped. Every fiber of a block now lives until the block
// ends, and the fibers of earlier blocks stay while they fit in kRetainedFibers, so that a race
// between blocks names both lines too. Each fiber costs TSan about 0.9 MiB of resident memory
// (measured: 4096 fibers, 3.5 GiB), which bounds how many can stay.
constexpr std::size_t kRetainedFibers = 512;
thread_local std::vector<std::vector<void*>> t_retained;
thread_local std::size_t t_retained_count = 0;
void retire_fibers(std::vector<void*> fibers) {
  t_retained_count += fibers.size();
  t_retained.push_back(std::move(fibers));
  while (!t_retained.empty() && t_retained_count > kRetainedFibers) {
    for (void* f : t_retained.front()) __tsan_destroy_fiber(f);
    t_retained_count -= t_retained.front().size();
    t_retained.erase(t_retained.begin());
  }
}
#endif

}  // namespace

#ifdef WD_TSAN
thread_local void* t_sched_fiber = nullptr;
// Released by the scheduler before the first block (inputs, arguments) and acquired by every
// fiber when it starts. Blocks are NOT ordered with each other: CUDA does not order them, and a
// block reading what another block wrote without atomics is a race the check must see. What
// blocks share only because they run one after another here (shared arenas, fiber stacks) is
// reset instead (shadow reset by a fixed re-mapping), see memory.cpp and StackPool.
char g_start;
char g_block_end;  // released by every fiber at exit, acquired once after the last block (outputs)
char g_grid_sync;  // released by every thread arriving at grid.sync(), acquired when it leaves
#endif

void yield_to_scheduler() {
  Thread* me = t_thread;
  WD_TSAN_ONLY(__tsan_switch_to_fiber(t_sched_fiber, 1);)
  me->back = std::move(me->back).resume();
}

void wait_for_release(int& waiting, char* sync) {
  t_block->events++;
  waiting++;
  WD_TSAN_ONLY(__tsan_release(sync);)
  yield_to_scheduler();
  WD_TSAN_ONLY(__tsan_acquire(sync);)
}

[[noreturn]] void rerun_with_fibers() {
  // The fast path cannot wait: the Python backend reruns this test with fibers.
  _exit(kExitRerunFibers);
}

void start_block_fibers(Block& b) {
  const dim3 bd = g_job.block;
  unsigned n = bd.x * bd.y * bd.z;
  b.threads.clear();
  b.threads.resize(n);
  unsigned i = 0;
  for (unsigned z = 0; z < bd.z; ++z)
    for (unsigned y = 0; y < bd.y; ++y)
      for (unsigned x = 0; x < bd.x; ++x, ++i) {
        Thread& t = b.threads[i];
        t.tid = uint3{x, y, z};
        t.linear = static_cast<int>(i);
        Thread* tp = &t;
#ifdef WD_TSAN
        t.tsan = __tsan_create_fiber(0);
        char name[96];
        snprintf(name, sizeof name, "block (%u,%u,%u) thread (%u,%u,%u)", b.bid.x, b.bid.y, b.bid.z, x, y, z);
        __tsan_set_fiber_name(t.tsan, name);
#endif
        t.fiber = ctx::fiber(std::allocator_arg, PoolAllocator{&t_pool}, [tp](ctx::fiber&& back) {
          tp->back = std::move(back);
          // The inputs and arguments happen before every thread; earlier blocks do not.
          WD_TSAN_ONLY(__tsan_acquire(&g_start);)
          wd_user_thread();
          tp->state = kExited;
          WD_TSAN_ONLY(__tsan_release(&g_block_end); __tsan_switch_to_fiber(t_sched_fiber, 1);)
          return std::move(tp->back);
        });
        t.stack_lo = t_pool.last_lo, t.stack_hi = t_pool.last_hi;
      }
  b.live = static_cast<int>(n);
  b.events = 0;
  b.at_barrier = 0;
  b.at_warp = 0;
  b.at_grid = 0;
  b.diverged = false;
  b.div_site.clear();
  b.reached.clear();
  b.site_line.clear();
}

void retire_block_fibers(Block& b) {
#ifdef WD_TSAN
  std::vector<void*> fibers;
  fibers.reserve(b.threads.size());
  for (auto& t : b.threads) fibers.push_back(t.tsan), t.tsan = nullptr;
  retire_fibers(std::move(fibers));
#else
  (void)b;
#endif
}

}  // namespace rt
}  // namespace wd
