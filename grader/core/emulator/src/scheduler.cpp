// Blocks, fibers, barriers and warp operations: the CUDA execution model on a CPU thread.
//
// Every CUDA thread of a block is a Boost.Context fiber. A scheduler pass resumes each runnable
// fiber until it blocks (barrier, warp op), yields (loop budget) or exits; after the pass it
// releases barriers whose participants have all arrived. When nothing can run and nothing can be
// released the block is deadlocked, provably. The fast path runs threads as plain calls instead.
#include <sys/mman.h>

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <cstdio>
#include <map>

#include "runtime.hpp"
#include "tsan.hpp"

namespace ctx = boost::context;

namespace wd {
namespace detail {
thread_local Context t_ctx;
}

namespace rt {
namespace {

constexpr long kFiberQuantum = 256;  // loop iterations between yields in fiber mode
constexpr long kFastQuantum = 1 << 20;  // loop iterations between time checks on the fast path
constexpr long long kFastBudget = 1LL << 28;  // loop iterations per thread before rerunning with fibers
constexpr std::size_t kStackSize = 64 * 1024;
constexpr std::size_t kGuard = 4096;

enum State { kRunnable, kAtBarrier, kAtWarp, kExited, kAtGrid };  // kAtGrid: in grid.sync() (cooperative)

struct Thread {
  ctx::fiber fiber;  // the suspended CUDA thread
  ctx::fiber back;  // the scheduler, while this thread runs
  uint3 tid;
  int linear = 0;
  State state = kRunnable;
  // barrier
  int site = 0, line = 0, op = 0, pred = 0, result = 0;
  // warp op
  unsigned wmask = 0;
  int wsite = 0, wline = 0, wop = 0, warg = 0, wwidth = 32;
  unsigned long long wvalue = 0, wresult = 0;
  int last_line = 0;
  int last_site = 0;  // the barrier site this thread last arrived at (0: none yet)
  unsigned long long exit_generation = ~0ULL;  // barrier generation during which it exited
  int exit_line = 0;  // the line of the `return;` it left the kernel by (0: it ran to the end)
  WD_TSAN_ONLY(void* tsan = nullptr;)
};

struct StackPool {
  std::vector<void*> free_stacks;
  unsigned color = 0;
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

thread_local StackPool t_pool;
thread_local Block* t_block = nullptr;
thread_local Thread* t_thread = nullptr;
thread_local long long t_fast_ticks = 0;
#ifdef WD_TSAN
thread_local void* t_sched_fiber = nullptr;
// Released by the scheduler before the first block (inputs, arguments) and acquired by every
// fiber when it starts. Blocks are NOT ordered with each other: CUDA does not order them, and a
// block reading what another block wrote without atomics is a race the check must see. What
// blocks share only because they run one after another here (shared arenas, fiber stacks) is
// reset instead (shadow reset by a fixed re-mapping), see memory.cpp and StackPool.
char g_start;
char g_block_end;  // released by every fiber at exit, acquired once after the last block (outputs)
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
char g_grid_sync;  // released by every thread arriving at grid.sync(), acquired when it leaves
#endif

std::string tid_str(uint3 v) {
  char b[64];
  snprintf(b, sizeof b, "(%u,%u,%u)", v.x, v.y, v.z);
  return b;
}

void yield_to_scheduler() {
  Thread* me = t_thread;
  WD_TSAN_ONLY(__tsan_switch_to_fiber(t_sched_fiber, 1);)
  me->back = std::move(me->back).resume();
}

[[noreturn]] void rerun_with_fibers() {
  // The fast path cannot wait: the Python backend reruns this test with fibers.
  _exit(kExitRerunFibers);
}

void set_thread_ctx(const Thread& t, long quantum) {
  detail::t_ctx.thread_idx = t.tid;
  detail::t_ctx.countdown = quantum;
}

// ---- releasing barriers and warp operations ----

std::string mask_hex(unsigned m);
std::string hang_note(int warp);

// Lanes that skipped this barrier and exited while other lanes of their warp arrived: the barrier
// sits in a condition that differs inside a warp (e.g. `if (t < stride) { ...; __syncthreads(); }`
// in a loop, or `if (t < 64) { __syncthreads(); ... }` with the other lanes running on to the
// end of the kernel). Lanes count as skipping it when they had already passed a barrier, or when
// they left the kernel after the barrier's line (by its end or a later `return;`). A tail guard
// `if (i >= n) return;` above the first barrier, and whole warps leaving, are silent.
//
// The barrier rule (docs/synchronization.md): exited threads do not count at a barrier, so a
// thread that skips a barrier and exits is the same as one that exited before it. This is a
// NOTE, not a finding: the Programming Guide calls it undefined, sm_70+ completes it. What the
// skipping lanes did on their way out is judged on its own: another barrier is a divergent
// barrier (release_block_barrier), a memory access the barrier should have ordered is a race
// (the check pass).
void check_skipped_barrier(Block& b, int barrier_line) {
  int n = static_cast<int>(b.threads.size());
  for (int w0 = 0; w0 < n; w0 += 32) {
    unsigned arrived = 0, skipped = 0;
    int line = 0;
    const Thread* example = nullptr;
    const Thread* skipper = nullptr;
    for (int j = 0; j < 32 && w0 + j < n; ++j) {
      const Thread& t = b.threads[w0 + j];
      if (t.state == kAtBarrier) {
        arrived |= 1u << j;
        line = t.line;
        if (!example) example = &t;
      } else if (t.state == kExited && t.exit_generation == b.barrier_generation &&
                 (t.last_site != 0 || t.exit_line == 0 || t.exit_line > barrier_line)) {
        skipped |= 1u << j;
        if (!skipper) skipper = &t;
      }
    }
    if (!arrived || !skipped) continue;
    Diag d;
    d.kind = "note";
    d.message = "The __syncthreads() on line " + std::to_string(line) + " is skipped inside a warp: in warp " +
                std::to_string(w0 / 32) + " of block " + tid_str(b.bid) + " lanes " + mask_hex(arrived) +
                " reached it while lanes " + mask_hex(skipped) + " (e.g. thread " + tid_str(skipper->tid) +
                ") skipped it and exited. Undefined by the Programming Guide's rule (the condition around a barrier "
                "must be the same for the whole block); completes on sm_70+ because exited threads are not waited for.";
    d.line = line;
    d.block = b.bid;
    d.thread = example->tid;
    d.has_ids = true;
    d.detail_json = "{\"other_thread\": " + ids_json(skipper->tid) + ", \"arrived_lanes\": \"" + mask_hex(arrived) +
                    "\", \"skipped_lanes\": \"" + mask_hex(skipped) + "\", \"warp\": " + std::to_string(w0 / 32) +
                    ", \"rule\": \"skipped_then_exited\"}";
    d.key = "skipped:" + std::to_string(line);
    d.order = b.linear_bid;
    add_diag(std::move(d));
    return;
  }
}

// At the end of a block that diverged: when exactly one of the barriers the threads met at was
// not reached by all of them afterwards, while the others were, that barrier is the divergent one
// (e.g. `if (threadIdx.x < 16) __syncthreads();` next to a correct barrier in a loop: lanes 16-31
// go past line 8 to the barrier on line 12, which every thread reaches). Rewrite the first report to
// name it; otherwise (an if/else with a barrier in each branch) the report stays as written.
void refine_divergence(Block& b) {
  int n = static_cast<int>(b.threads.size());
  std::map<int, bool> partial;  // site met at the divergence -> some of those threads never reached it
  for (int i = 0; i < n; ++i)
    if (b.div_site[i]) partial[b.div_site[i]] = false;
  for (auto& [s, p] : partial) {
    const auto& r = b.reached[s];
    for (int i = 0; i < n && !p; ++i) p = b.div_site[i] && !r[i];
  }
  int x = 0, partial_count = 0;
  for (auto& [s, p] : partial)
    if (p) x = s, partial_count++;
  if (partial_count != 1) return;
  int line = b.site_line[x];
  // The clearest example: a warp split between that barrier and another one.
  const Thread* waiter = nullptr;
  const Thread* passer = nullptr;
  unsigned arrived = 0, passed = 0;
  int warp = -1;
  for (int w0 = 0; w0 < n && warp < 0; w0 += 32) {
    arrived = passed = 0;
    for (int j = 0; j < 32 && w0 + j < n; ++j) {
      int s = b.div_site[w0 + j];
      if (s == x) arrived |= 1u << j;
      else if (s) passed |= 1u << j;
    }
    if (arrived && passed) {
      warp = w0 / 32;
      waiter = &b.threads[w0 + __builtin_ctz(arrived)];
      passer = &b.threads[w0 + __builtin_ctz(passed)];
    }
  }
  if (warp < 0) {
    for (auto& t : b.threads) {
      if (b.div_site[t.linear] == x && !waiter) waiter = &t;
      if (b.div_site[t.linear] && b.div_site[t.linear] != x && !passer) passer = &t;
    }
  }
  int other_line = b.site_line[b.div_site[passer->linear]];
  std::string where = std::to_string(line), other = std::to_string(other_line);
  Diag d = b.divergence;
  std::string who = warp >= 0 ? "in warp " + std::to_string(warp) + " of block " + tid_str(b.bid) + " lanes " +
                                    mask_hex(arrived) + " wait at it while lanes " + mask_hex(passed) + " (e.g. thread " +
                                    tid_str(passer->tid) + ")"
                              : "in block " + tid_str(b.bid) + " threads such as " + tid_str(waiter->tid) +
                                    " wait at it while threads such as " + tid_str(passer->tid);
  d.message = "Divergent __syncthreads() on line " + where + ": " + who +
              " went past it to the barrier on line " + other + ". Every thread reaches the barrier on line " + other +
              ", only some reach the one on line " + where +
              ": the condition around a barrier must be the same for the whole block." + hang_note(warp);
  d.line = line;
  d.thread = waiter->tid;
  d.detail_json = "{\"other_line\": " + other + ", \"other_thread\": " + ids_json(passer->tid) +
                  ", \"sites\": [" + b.div_sites_json + "], \"reached_by_all\": [" + other + "]";
  if (warp >= 0)
    d.detail_json += ", \"warp\": " + std::to_string(warp) + ", \"arrived_lanes\": \"" + mask_hex(arrived) +
                     "\", \"passed_lanes\": \"" + mask_hex(passed) + "\"";
  d.detail_json += "}";
  add_diag(std::move(d), true);
}

// The first warp whose live lanes wait at two different barriers (-1: none). On sm_70+ such a warp
// hangs when the compiler emits the branch as a jump; a short branch it predicates completes
// (measured on an H200, shared/device/README.md).
int split_warp(const Block& b) {
  int n = static_cast<int>(b.threads.size());
  for (int w0 = 0; w0 < n; w0 += 32) {
    int site = 0;
    for (int j = 0; j < 32 && w0 + j < n; ++j) {
      const Thread& t = b.threads[w0 + j];
      if (t.state != kAtBarrier) continue;
      if (site && t.site != site) return w0 / 32;
      site = t.site;
    }
  }
  return -1;
}

std::string hang_note(int warp) {
  if (warp < 0) return "";
  return " Warp " + std::to_string(warp) +
         " is split between the two barriers: on sm_70+ this hangs unless the compiler predicates the branch.";
}

bool release_block_barrier(Block& b) {
  if (b.at_barrier == 0 || b.at_barrier != b.live) return false;
  int count = 0, all = 1, any = 0, site = 0;
  int line = 0;
  bool divergent = false, first = true;
  for (auto& t : b.threads) {
    if (t.state != kAtBarrier) continue;
    if (first) site = t.site, line = t.line, first = false;
    divergent |= t.site != site;
    count += t.pred;
    all &= t.pred;
    any |= t.pred;
  }
  if (divergent) {
    std::map<int, std::vector<const Thread*>> by_site;
    for (auto& t : b.threads)
      if (t.state == kAtBarrier) by_site[t.site].push_back(&t);
    // Live threads at different barriers: undefined behaviour. Hardware usually lets them through
    // together, so do the same (the output is still compared) and report it.
    Diag d;
    d.kind = "divergent_barrier";
    std::string lines, sites;
    std::vector<int> line_list;
    for (auto& [site, ts] : by_site) {
      line_list.push_back(ts.front()->line);
      sites += std::string(sites.empty() ? "" : ", ") + "{\"line\": " + std::to_string(ts.front()->line) +
               ", \"threads\": " + std::to_string(ts.size()) + ", \"example_thread\": " + ids_json(ts.front()->tid) + "}";
      lines += (lines.empty() ? "" : " and ") + std::to_string(ts.front()->line);
    }
    auto first = by_site.begin()->second.front();
    auto second = std::next(by_site.begin())->second.front();
    int split = split_warp(b);
    d.message = "Divergent __syncthreads(): in block " + tid_str(b.bid) + " threads wait at barriers on lines " + lines +
                " at the same time (e.g. thread " + tid_str(first->tid) + " on line " + std::to_string(first->line) +
                ", thread " + tid_str(second->tid) + " on line " + std::to_string(second->line) +
                "). A barrier must be reached by every live thread of the block through the same call." +
                hang_note(split);
    d.line = first->line;
    d.block = b.bid;
    d.thread = first->tid;
    d.has_ids = true;
    d.detail_json = "{\"other_line\": " + std::to_string(second->line) + ", \"other_thread\": " + ids_json(second->tid) +
                    ", \"sites\": [" + sites + "], \"split_warp\": " + std::to_string(split) + "}";
    d.key = "divergent:";
    for (int l : line_list) d.key += std::to_string(l) + ",";
    d.order = b.linear_bid;
    if (!b.diverged) {
      b.diverged = true;
      b.div_site.assign(b.threads.size(), 0);
      for (auto& t : b.threads)
        if (t.state == kAtBarrier) b.div_site[t.linear] = t.site;
      b.div_sites_json = sites;
      b.divergence = d;
    }
    add_diag(std::move(d));
  }
  // Once the block has diverged its threads pass barriers out of step, so lanes that run out of
  // iterations and exit while their warp-mates still wait are a consequence of that first report,
  // not a barrier they skipped: the skipped-barrier check would blame a correct barrier.
  if (!divergent && !b.diverged) check_skipped_barrier(b, line);
  for (auto& t : b.threads) {
    if (t.state != kAtBarrier) continue;
    if (b.diverged) {
      auto& r = b.reached[t.site];
      if (r.empty()) r.assign(b.threads.size(), 0);
      r[t.linear] = 1;
      b.site_line[t.site] = t.line;
    }
    t.last_site = t.site;
    t.result = t.op == 1 ? count : t.op == 2 ? all : t.op == 3 ? any : 0;
    t.state = kRunnable;
  }
  b.at_barrier = 0;
  b.barrier_generation++;
  b.events++;
  return true;
}

void warp_diag(Block& b, const Thread& t, const std::string& message, const std::string& detail, const std::string& key) {
  Diag d;
  d.kind = "warp_mask";
  d.message = message;
  d.line = t.wline;
  d.block = b.bid;
  d.thread = t.tid;
  d.has_ids = true;
  d.detail_json = detail;
  d.key = "warp:" + key;
  d.order = b.linear_bid;
  add_diag(std::move(d));
}

std::string mask_hex(unsigned m) {
  char buf[16];
  snprintf(buf, sizeof buf, "0x%08x", m);
  return buf;
}

bool release_warps(Block& b) {
  bool released = false;
  if (b.at_warp == 0) return false;
  int n = static_cast<int>(b.threads.size());
  for (int w0 = 0; w0 < n; w0 += 32) {
    int lanes = std::min(32, n - w0);
    unsigned exists = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
    for (int l = 0; l < lanes; ++l) {
      Thread& lead = b.threads[w0 + l];
      if (lead.state != kAtWarp) continue;
      if (lead.wop == detail::kCoalesce) {
        // coalesced_threads(): the lanes at this call form the group once no lane of the warp
        // is still running (the others exited or wait at another barrier or warp operation).
        unsigned group = 0;
        bool ready = true;
        for (int j = 0; j < lanes && ready; ++j) {
          const Thread& t = b.threads[w0 + j];
          if (t.state == kAtWarp && t.wop == detail::kCoalesce && t.wsite == lead.wsite) group |= 1u << j;
          else if (t.state == kRunnable) ready = false;
        }
        if (!ready) continue;
        for (int j = 0; j < lanes; ++j)
          if (group >> j & 1) { b.threads[w0 + j].wresult = group; b.threads[w0 + j].state = kRunnable; }
        b.at_warp -= __builtin_popcount(group);
        b.events++;
        released = true;
        continue;
      }
      unsigned m = (lead.wmask | (1u << l)) & exists;
      bool ready = true;
      unsigned group = 0, exited = 0;
      for (int j = 0; j < lanes; ++j) {
        if (!(m >> j & 1)) continue;
        State s = b.threads[w0 + j].state;
        if (s == kAtWarp) group |= 1u << j;
        else if (s == kExited) exited |= 1u << j;
        else { ready = false; break; }
      }
      if (!ready) continue;
      std::string where = "line " + std::to_string(lead.wline) + " (block " + tid_str(b.bid) + ", warp " +
                          std::to_string(w0 / 32) + ")";
      // Lanes of the mask that exited: "all non-exited threads named in mask must execute the same
      // intrinsic" (Programming Guide), so a vote or __syncwarp without them is defined (the H200
      // completes it cleanly); a shuffle that reads an exited lane's value gets an undefined one
      // (docs/synchronization.md row 12). Which lanes read an exited one is decided below.
      bool reads_exited = false;
      for (int j = 0; j < lanes; ++j) {
        const Thread& t = b.threads[w0 + j];
        if ((group >> j & 1) && (t.wsite != lead.wsite || t.wmask != lead.wmask)) {
          warp_diag(b, lead,
                    "Lanes of one warp meet at different warp operations or with different masks: lane " +
                        std::to_string(l) + " at line " + std::to_string(lead.wline) + " with mask " + mask_hex(lead.wmask) +
                        ", lane " + std::to_string(j) + " at line " + std::to_string(t.wline) + " with mask " +
                        mask_hex(t.wmask) + " (block " + tid_str(b.bid) + ").",
                    "{\"other_line\": " + std::to_string(t.wline) + ", \"other_thread\": " + ids_json(t.tid) +
                        ", \"mask\": \"" + mask_hex(lead.wmask) + "\", \"other_mask\": \"" + mask_hex(t.wmask) + "\"}",
                    "mismatch:" + std::to_string(lead.wline) + ":" + std::to_string(t.wline));
          break;
        }
      }
      unsigned ballot = 0;
      for (int j = 0; j < lanes; ++j)
        if ((group >> j & 1) && b.threads[w0 + j].wvalue) ballot |= 1u << j;
      for (int j = 0; j < lanes; ++j) {
        if (!(group >> j & 1)) continue;
        Thread& t = b.threads[w0 + j];
        int width = t.wwidth;
        if (width <= 0 || width > 32 || (width & (width - 1))) width = 32;
        int seg = j & ~(width - 1);
        int src = j;
        switch (t.wop) {
          case detail::kShflIdx: src = seg + (t.warg & (width - 1)); break;
          case detail::kShflUp: src = (j - seg) >= t.warg ? j - t.warg : j; break;
          case detail::kShflDown: src = (j - seg) + t.warg < width ? j + t.warg : j; break;
          case detail::kShflXor: src = j ^ t.warg; if (src < seg || src >= seg + width) src = j; break;
          default: break;
        }
        if (t.wop >= detail::kShflIdx && t.wop <= detail::kShflXor && src >= 0 && src < 32 && (exited >> src & 1))
          reads_exited = true;
        switch (t.wop) {
          case detail::kBallot: t.wresult = ballot; break;
          case detail::kAny: t.wresult = ballot != 0; break;
          case detail::kAll: t.wresult = ballot == group; break;
          case detail::kSyncWarp: t.wresult = 0; break;
          default:
            // A source lane that does not exist or did not take part reads 0 (as measured on H200).
            t.wresult = (src >= 0 && src < 32 && (group >> src & 1)) ? b.threads[w0 + src].wvalue : 0;
        }
      }
      if (reads_exited) {
        warp_diag(b, lead,
                  "Warp operation on " + where + " names lanes in its mask " + mask_hex(lead.wmask) +
                      " that exited without reaching it (exited lanes " + mask_hex(exited) +
                      "). On a GPU this is undefined and may hang.",
                  "{\"mask\": \"" + mask_hex(lead.wmask) + "\", \"exited_lanes\": \"" + mask_hex(exited) + "\"}",
                  "exited:" + std::to_string(lead.wline));
      }
      for (int j = 0; j < lanes; ++j)
        if (group >> j & 1) b.threads[w0 + j].state = kRunnable;
      b.at_warp -= __builtin_popcount(group);
      b.events++;
      released = true;
    }
  }
  return released;
}

// ---- deadlock and timeout reports ----

struct WaitGroup {
  std::string what;
  int line;
  int count = 0;
  uint3 example;
};

std::vector<WaitGroup> group_threads(Block& b, State s) {
  std::vector<WaitGroup> groups;
  for (auto& t : b.threads) {
    if (t.state != s) continue;
    int line = s == kAtBarrier ? t.line : s == kAtWarp ? t.wline : t.last_line;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const WaitGroup& g) { return g.line == line; });
    if (it == groups.end()) {
      groups.push_back(WaitGroup{s == kAtBarrier ? "barrier" : s == kAtWarp ? "warp operation" : "loop", line, 1, t.tid});
    } else {
      it->count++;
    }
  }
  return groups;
}

std::string groups_json(const std::vector<WaitGroup>& gs) {
  std::string s = "[";
  for (auto& g : gs) {
    s += std::string(s.size() > 1 ? ", " : "") + "{\"line\": " + std::to_string(g.line) + ", \"threads\": " +
         std::to_string(g.count) + ", \"example_thread\": " + ids_json(g.example) + ", \"what\": " + json_str(g.what) + "}";
  }
  return s + "]";
}

std::string groups_text(const std::vector<WaitGroup>& gs, const char* verb) {
  // `verb` is the plural form ("wait at the"); one thread gets the singular ("waits at the").
  std::string s;
  for (auto& g : gs) {
    if (!s.empty()) s += "; ";
    std::string v = verb;
    if (g.count == 1) v.insert(v.find(' '), "s");
    std::string who = g.count == 1 ? "1 thread " + tid_str(g.example)
                                   : std::to_string(g.count) + " threads (e.g. " + tid_str(g.example) + ")";
    s += who + " " + v + " " + g.what + " on line " + std::to_string(g.line);
  }
  return s;
}

[[noreturn]] void report_deadlock(Block& b, bool proven) {
  auto bar = group_threads(b, kAtBarrier);
  auto warp = group_threads(b, kAtWarp);
  auto spin = group_threads(b, kRunnable);
  std::vector<WaitGroup> waiting = bar;
  waiting.insert(waiting.end(), warp.begin(), warp.end());
  Diag d;
  d.kind = "deadlock";
  std::string msg = "Deadlock in block " + tid_str(b.bid) + ": " + groups_text(waiting, "wait at the");
  if (proven) {
    msg += ", and no other thread can ever arrive there.";
  } else {
    msg += ", while " + groups_text(spin, "spin in the") + " without making progress.";
    if (g_job.grid.x * g_job.grid.y * g_job.grid.z > 1)
      msg += " If they wait for another block: CUDA does not guarantee that blocks run concurrently.";
  }
  d.message = msg;
  d.line = waiting.empty() ? 0 : waiting.front().line;
  d.block = b.bid;
  d.thread = waiting.empty() ? uint3{0, 0, 0} : waiting.front().example;
  d.has_ids = true;
  d.detail_json = "{\"proven\": " + std::string(proven ? "true" : "false") + ", \"waiting\": " + groups_json(waiting) +
                  ", \"spinning\": " + groups_json(spin) + ", \"spin_line\": " +
                  std::to_string(spin.empty() ? 0 : spin.front().line) + "}";
  finish("deadlock", msg, {d});
}

[[noreturn]] void report_timeout(uint3 bid, uint3 tid, int line) {
  Diag d;
  d.kind = "timeout";
  d.message = "The kernel ran past the time limit of " + std::to_string(static_cast<int>(g_job.time_limit_s + 0.5)) +
              " s; thread " + tid_str(tid) + " of block " + tid_str(bid) + " was looping on line " + std::to_string(line) + ".";
  d.line = line;
  d.block = bid;
  d.thread = tid;
  d.has_ids = true;
  d.detail_json = "{}";
  finish("timeout", d.message, {d});
}

// ---- running blocks ----

void run_block_fast(uint3 bid, unsigned n) {
  const dim3 bd = g_job.block;
  unsigned i = 0;
  for (unsigned z = 0; z < bd.z; ++z)
    for (unsigned y = 0; y < bd.y; ++y)
      for (unsigned x = 0; x < bd.x; ++x, ++i) {
        detail::t_ctx.thread_idx = uint3{x, y, z};
        detail::t_ctx.countdown = kFastQuantum;
        t_fast_ticks = 0;
        wd_user_thread();
      }
  (void)bid;
  (void)n;
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
#ifdef WD_TSAN
  std::vector<void*> fibers;
  fibers.reserve(b.threads.size());
  for (auto& t : b.threads) fibers.push_back(t.tsan), t.tsan = nullptr;
  retire_fibers(std::move(fibers));
#endif
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

int block_barrier(int site, int line, int op, int predicate) {
  using namespace rt;
  if (!g_job.fibers) rerun_with_fibers();
  Thread* me = t_thread;
  me->state = kAtBarrier;
  me->site = site;
  me->line = line;
  me->op = op;
  me->pred = predicate;
  t_block->events++;
  t_block->at_barrier++;
  WD_TSAN_ONLY(char* sync = &t_block->barrier_sync[t_block->barrier_generation & 1]; __tsan_release(sync);)
  yield_to_scheduler();
  WD_TSAN_ONLY(__tsan_acquire(sync);)
  return me->result;
}

void kernel_exit(int line) {
  // The fast path has no thread records; only the fiber scheduler asks where a thread left.
  if (rt::t_thread) rt::t_thread->exit_line = line;
}

void thread_fence(int line) { (void)line; __atomic_thread_fence(__ATOMIC_SEQ_CST); }

unsigned long long warp_op(int site, int line, int op, unsigned mask, unsigned long long value, int arg, int width) {
  using namespace rt;
  if (!g_job.fibers) rerun_with_fibers();
  Thread* me = t_thread;
  me->state = kAtWarp;
  me->wsite = site;
  me->wline = line;
  me->wop = op;
  me->wmask = mask;
  me->wvalue = value;
  me->warg = arg;
  me->wwidth = width;
  t_block->events++;
  t_block->at_warp++;
  WD_TSAN_ONLY(char* sync = &t_block->warp_sync[me->linear / 32 % 32]; __tsan_release(sync);)
  yield_to_scheduler();
  WD_TSAN_ONLY(__tsan_acquire(sync);)
  return me->wresult;
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
    d.line = line;
    d.block = t_ctx.block_idx;
    d.thread = t_ctx.thread_idx;
    d.has_ids = true;
    d.detail_json = "{\"error\": \"CUDA_ERROR_LAUNCH_FAILED\"}";
    finish("fault", d.message, {d});
  }
  if (blocks == 1) {  // one block: the grid's barrier is the block's
    block_barrier(line * 4096 + 4094, line, 0, 0);
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

unsigned lane_id() {
  auto& c = t_ctx;
  return ((c.thread_idx.z * c.block_dim.y + c.thread_idx.y) * c.block_dim.x + c.thread_idx.x) % 32;
}

unsigned active_mask() {
  // Lanes of the caller's warp that have not exited (no lock-step here: see docs/emulator.md).
  using namespace rt;
  if (!g_job.fibers || !t_block) return 0xffffffffu;
  int w0 = t_thread->linear / 32 * 32;
  int n = static_cast<int>(t_block->threads.size());
  unsigned m = 0;
  for (int j = 0; j < 32 && w0 + j < n; ++j)
    if (t_block->threads[w0 + j].state != kExited) m |= 1u << j;
  return m;
}

}  // namespace detail
}  // namespace wd
