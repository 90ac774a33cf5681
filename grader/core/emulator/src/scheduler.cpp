// Running blocks: the fast path (threads as plain calls), the fiber scheduler's passes over a block,
// a co-resident grid (cooperative launches) and the loop ticks that time a kernel and yield.
//
// A scheduler pass resumes each runnable fiber until it blocks (barrier, warp op), yields (loop
// budget) or exits; after the pass it releases barriers whose participants have all arrived
// (barrier.cpp, warp.cpp). When nothing can run and nothing can be released the block is
// deadlocked, provably (deadlock.cpp). Fibers themselves live in fiber.cpp.
#include "scheduler.hpp"

namespace wd {
namespace detail {
thread_local Context t_ctx;
}

namespace rt {

thread_local Block* t_block = nullptr;
thread_local Thread* t_thread = nullptr;

thread_local long long t_fast_ticks = 0;

namespace {

void set_thread_ctx(const Thread& t, long quantum) {
  detail::t_ctx.thread_idx = t.tid;
  detail::t_ctx.countdown = quantum;
}

void run_block_fast(uint3 bid, unsigned n) {
  t_fast_stack_top = static_cast<const char*>(__builtin_frame_address(0));
  for_each_thread_in_order([](unsigned) { wd_user_thread(); });
  (void)bid;
  (void)n;
}

enum BlockRun { kBlockDone, kBlockAtGrid, kBlockSpinning };

// Runs the block until its threads have exited (kBlockDone) or every live one waits in grid.sync()
// (kBlockAtGrid: a cooperative launch resumes it once every block has arrived). With `coresident`
// (the blocks of a grid that is resident at once) a pass in which nothing was released while some
// threads still run returns kBlockSpinning: they may wait for another block, which runs next; the
// caller watches for progress across the grid.
BlockRun resume_block_fibers(Block& b, bool coresident = false) {
  t_block = &b;
  unsigned long long last_events = b.events;
  double last_progress = thread_cpu_s();  // the no-progress window counts this thread's CPU time
  for (;;) {
    bool any_runnable = false;
    for (auto& t : b.threads) {
      if (t.state != kRunnable) continue;
      set_thread_ctx(t, kFiberQuantum);
      t_thread = &t;
      WD_TSAN_ONLY(__tsan_switch_to_fiber(t.tsan, 1);)
      t.fiber = std::move(t.fiber).resume();
      if (t.state == kExited) {
        t.exit_generation = b.barrier_generation;
        b.live--;
        b.events++;
      }
    }
    t_thread = nullptr;
    if (b.live == 0) {
      if (b.diverged) refine_divergence(b);
      WD_TSAN_ONLY(tsan_watch_block_end(b.linear_bid);)
      break;
    }
    if (b.at_grid > 0 && b.at_grid == b.live) {
      t_block = nullptr;
      return kBlockAtGrid;
    }
    bool released = release_block_barrier(b);
    released |= release_warps(b);
    if (released) {
      if (over_time_limit()) report_timeout(b.bid, b.threads[0].tid, b.threads[0].line);
      continue;
    }
    for (auto& t : b.threads) any_runnable |= t.state == kRunnable;
    if (!any_runnable) report_deadlock(b, true);
    if (coresident) {
      t_block = nullptr;
      return kBlockSpinning;
    }
    double now = thread_cpu_s();
    if (b.events != last_events) {
      last_events = b.events;
      last_progress = now;
    }
    bool parked = false;
    for (auto& t : b.threads) parked |= t.state == kAtBarrier || t.state == kAtWarp;
    if (parked && now - last_progress > g_job.progress_window_s) report_deadlock(b, false);
    if (over_time_limit()) {
      for (auto& t : b.threads)
        if (t.state == kRunnable) report_timeout(b.bid, t.tid, t.last_line);
    }
  }
  t_block = nullptr;
  retire_block_fibers(b);
  return kBlockDone;
}

void run_block_fibers(Block& b) {
  start_block_fibers(b);
  resume_block_fibers(b);
}

// A cooperative launch (or an ordinary one run co-resident): every block is resident at once,
// each with its own fibers and shared arenas, on one worker. Blocks run in turn until each has
// exited, parked all its live threads in grid.sync() or made one pass with threads still running
// (spinning, perhaps on another block: an inter-block spin barrier). When every block that has not
// exited waits in grid.sync(), the grid barrier releases them all; a block that exited while others
// wait there never arrives: the hardware's grid barrier waits for it forever (deadlock). Threads
// parked in a barrier while the grid makes no progress for the progress window are a deadlock too.
void run_grid_cooperative() {
  const dim3 g = g_job.grid;
  unsigned long long total = 1ULL * g.x * g.y * g.z;
  std::vector<Block> blocks(total);
  std::vector<SharedState*> arenas(total);
  std::vector<BlockRun> state(total, kBlockSpinning);
  std::vector<char> started(total, 0);
  unsigned long long last_events = ~0ULL;
  double last_progress = thread_cpu_s();
  for (;;) {
    for (unsigned long long lin = 0; lin < total; ++lin) {
      if (state[lin] != kBlockSpinning) continue;  // exited, or waiting for the grid barrier
      Block& b = blocks[lin];
      uint3 bid{static_cast<unsigned>(lin % g.x), static_cast<unsigned>(lin / g.x % g.y), static_cast<unsigned>(lin / g.x / g.y)};
      detail::t_ctx.block_idx = bid;
      if (!started[lin]) {
        started[lin] = 1;
        arenas[lin] = shared_state_new();
        shared_state_swap(arenas[lin]);
        b.bid = bid;
        b.linear_bid = lin;
        start_block_fibers(b);
      } else {
        shared_state_swap(arenas[lin]);
      }
      state[lin] = resume_block_fibers(b, true);
      shared_state_swap(arenas[lin]);
    }
    bool any_spinning = false, any_done = false, any_parked = false;
    unsigned long long events = 0;
    Block* spinning = nullptr;
    for (unsigned long long lin = 0; lin < total; ++lin) {
      any_done |= state[lin] == kBlockDone;
      events += blocks[lin].events;
      if (state[lin] == kBlockSpinning) {
        any_spinning = true;
        if (!spinning) spinning = &blocks[lin];
      }
      if (state[lin] != kBlockDone)
        for (auto& t : blocks[lin].threads) any_parked |= t.state == kAtBarrier || t.state == kAtWarp || t.state == kAtGrid;
    }
    if (!any_spinning) {
      bool any_at_grid = false;
      for (unsigned long long lin = 0; lin < total; ++lin) any_at_grid |= state[lin] == kBlockAtGrid;
      if (!any_at_grid) return;  // every block has exited
      if (any_done) {
        for (unsigned long long lin = 0; lin < total; ++lin) {
          if (state[lin] != kBlockAtGrid) continue;
          const Thread* waiting = nullptr;
          for (auto& t : blocks[lin].threads)
            if (t.state == kAtGrid) { waiting = &t; break; }
          Diag d;
          d.kind = "deadlock";
          d.message = "Deadlock: threads wait in grid.sync() on line " + std::to_string(waiting->line) + " (block " +
                      tid_str(blocks[lin].bid) + ") for blocks that have already exited and never arrive there.";
          d.code = "RUNTIME_GRID_SYNC_EXITED";
          d.params_json = JsonObject().add("line", waiting->line).add("block", tid_str(blocks[lin].bid)).str();
          d.line = waiting->line;
          d.block = blocks[lin].bid;
          d.thread = waiting->tid;
          d.has_ids = true;
          d.detail_json = "{\"proven\": true}";
          finish("deadlock", d.message, {d});
        }
      }
      for (unsigned long long lin = 0; lin < total; ++lin) {  // the grid barrier releases every block
        for (auto& t : blocks[lin].threads)
          if (t.state == kAtGrid) t.state = kRunnable;
        blocks[lin].at_grid = 0;
        blocks[lin].events++;
        state[lin] = kBlockSpinning;
      }
      continue;
    }
    double now = thread_cpu_s();
    if (events != last_events) {
      last_events = events;
      last_progress = now;
    }
    if (any_parked && now - last_progress > g_job.progress_window_s) report_deadlock(*spinning, false);
    if (over_time_limit()) {
      for (auto& t : spinning->threads)
        if (t.state == kRunnable) report_timeout(spinning->bid, t.tid, t.last_line);
    }
  }
}

}  // namespace

bool tsan_block_epoch(unsigned long long* block, unsigned long long* generation) {
  if (!t_block) return false;
  *block = t_block->linear_bid;
  *generation = t_block->barrier_generation;
  return true;
}

void run_worker(int worker) {
  t_worker = worker;
  install_altstack();
  bool cooperative_grid = (g_job.cooperative || g_job.coresident) && g_job.fibers &&
                          1ULL * g_job.grid.x * g_job.grid.y * g_job.grid.z > 1;
  if (cooperative_grid && worker != 0) return;  // one worker holds the whole co-resident grid
  WD_TSAN_ONLY(t_sched_fiber = __tsan_get_current_fiber(); __tsan_release(&g_start);)
  const dim3 g = g_job.grid, bd = g_job.block;
  detail::t_ctx.block_dim = uint3{bd.x, bd.y, bd.z};
  detail::t_ctx.grid_dim = uint3{g.x, g.y, g.z};
  unsigned long long total = 1ULL * g.x * g.y * g.z;
  unsigned n = bd.x * bd.y * bd.z;
  if (cooperative_grid) {
    shared_new_block();
    run_grid_cooperative();
    WD_TSAN_ONLY(__tsan_acquire(&g_block_end);)
    return;
  }
  Block block;
  for (unsigned long long lin = worker; lin < total; lin += g_job.workers) {
    uint3 bid{static_cast<unsigned>(lin % g.x), static_cast<unsigned>(lin / g.x % g.y), static_cast<unsigned>(lin / g.x / g.y)};
    detail::t_ctx.block_idx = bid;
    shared_new_block();
    // Kernels without loops never tick: check the time limit between blocks too.
    if ((lin & 63) == 0 && over_time_limit()) report_timeout(bid, uint3{0, 0, 0}, 0);
    if (g_job.fibers) {
      block.bid = bid;
      block.linear_bid = lin;
      run_block_fibers(block);
    } else if (g_job.coro) {
      run_block_coro();
    } else {
      run_block_fast(bid, n);
    }
  }
  // The outputs are read after every block: make that visible to TSan.
  WD_TSAN_ONLY(__tsan_acquire(&g_block_end);)
}

}  // namespace rt

namespace detail {

void tick_slow(int line) {
  using namespace rt;
  if (g_start_s == 0) {
    // A loop in a static initialiser, before the harness has read its job: there is no launch
    // to time or to yield to. Keep going; the sandbox's wall clock ends a loop that never does
    // (TIME_LIMIT), which is what the student's code earned.
    t_ctx.countdown = kFastQuantum;
    return;
  }
  if (!g_job.fibers) {
    t_fast_ticks += kFastQuantum;
    t_ctx.countdown = kFastQuantum;
    t_ctx.line = line;
    if (t_fast_ticks > kFastBudget) rerun_with_fibers();
    if (over_time_limit()) report_timeout(t_ctx.block_idx, t_ctx.thread_idx, line);
    return;
  }
  t_thread->last_line = line;
  yield_to_scheduler();
}

void tick_call(int line) {
  if (--t_ctx.countdown < 0) tick_slow(line);
}

bool cooperative_launch() { return rt::g_job.cooperative; }

void grid_sync(int line) {
  using namespace rt;
  unsigned long long blocks = 1ULL * g_job.grid.x * g_job.grid.y * g_job.grid.z;
  if (!g_job.cooperative) {
    // The hardware traps: the launch fails with CUDA_ERROR_LAUNCH_FAILED (cudaErrorLaunchFailure).
    Diag d;
    d.kind = "cuda_error";
    d.message = "grid.sync() on line " + std::to_string(line) +
                " needs a cooperative launch (cudaLaunchCooperativeKernel): this launch is not one, so the GPU stops "
                "the kernel with CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure).";
    d.code = "RUNTIME_GRID_SYNC_NOT_COOPERATIVE";
    d.params_json = JsonObject().add("line", line).str();
    d.line = line;
    d.block = t_ctx.block_idx;
    d.thread = t_ctx.thread_idx;
    d.has_ids = true;
    d.detail_json = "{\"error\": \"CUDA_ERROR_LAUNCH_FAILED\"}";
    finish("fault", d.message, {d});
  }
  if (blocks == 1) {  // one block: the grid's barrier is the block's
    block_barrier(line * 4096 + 4094, line, BarrierOp::kPlain, 0);
    return;
  }
  // The blocks are co-resident (run_grid_cooperative): park until every block has arrived.
  Thread* me = t_thread;
  me->state = kAtGrid;
  me->line = line;
  t_block->events++;
  t_block->at_grid++;
  WD_TSAN_ONLY(__tsan_release(&g_grid_sync);)
  yield_to_scheduler();
  WD_TSAN_ONLY(__tsan_acquire(&g_grid_sync);)
}

}  // namespace detail
}  // namespace wd
