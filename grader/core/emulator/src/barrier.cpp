// Block barriers: __syncthreads() and its reductions, released when every live thread of the block
// has arrived; divergent barriers (live threads at different sites) and barriers skipped inside a
// warp are reported here, by the rule of docs/synchronization.md.
#include <map>
#include <vector>

#include "scheduler.hpp"

namespace wd {
namespace rt {
namespace {

// Threads that skipped this barrier and exited while other threads of the block arrived at it: the
// barrier sits in a condition that differs inside the block (e.g. `if (t < stride) { ...; __syncthreads(); }`
// in a loop, or `if (t < 64) { __syncthreads(); ... }` with the other threads running on to the end
// of the kernel). Threads count as skipping it when they had passed this barrier before (a loop), or
// when they left the kernel after the barrier's line (by its end or a later `return;`). An early
// `return` above a barrier they never passed, such as a tail guard `if (i >= n) return;` or
// `if (t >= 128) return;` between two barriers, is silent (row 2 of the table).
//
// The barrier rule (docs/synchronization.md): exited threads do not count at a barrier, so a
// thread that skips a barrier and exits is the same as one that exited before it. This is a
// NOTE, not a finding: the Programming Guide calls it undefined, sm_70+ completes it. A skip that
// splits a warp is named by its warp and lanes; whole warps skipping it (rows 3-4 with a warp-aligned
// condition) by the warps. What the skipping threads did on their way out is judged on its own:
// another barrier is a divergent barrier (release_block_barrier), a memory access the barrier
// should have ordered is a race (the check pass).

// "2-7", "1, 3, 5-6": warp numbers in increasing order as ranges.
std::string ranges_str(const std::vector<int>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (s.empty() ? "" : ", ") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return s;
}

const char* kUndefinedButCompletes =
    " Undefined by the Programming Guide's rule (the condition around a barrier must be the same for the whole "
    "block); completes on sm_70+ because exited threads are not waited for.";

void check_skipped_barrier(Block& b, int site, int barrier_line) {
  int n = static_cast<int>(b.threads.size());
  int arrived_threads = 0, line = 0;
  const Thread* first_arrived = nullptr;
  const Thread* first_skipper = nullptr;
  std::vector<int> skipped_warps;  // warps none of whose lanes reached it, some of which skipped it
  for (int w0 = 0; w0 < n; w0 += 32) {
    unsigned arrived = 0, skipped = 0;
    const Thread* example = nullptr;
    const Thread* skipper = nullptr;
    for (int j = 0; j < 32 && w0 + j < n; ++j) {
      const Thread& t = b.threads[w0 + j];
      if (t.state == kAtBarrier) {
        arrived |= 1u << j;
        line = t.line;
        if (!example) example = &t;
      } else if (t.state == kExited && t.exit_generation == b.barrier_generation &&
                 ((t.passed_sites >> (site % 64) & 1) || t.exit_line == 0 || t.exit_line > barrier_line)) {
        skipped |= 1u << j;
        if (!skipper) skipper = &t;
      }
    }
    arrived_threads += __builtin_popcount(arrived);
    if (arrived && !first_arrived) first_arrived = example;
    if (!arrived && skipped) {
      skipped_warps.push_back(w0 / 32);
      if (!first_skipper) first_skipper = skipper;
    }
    if (!arrived || !skipped) continue;
    Diag d;
    d.kind = "note";
    d.message = "The __syncthreads() on line " + std::to_string(line) + " is skipped inside a warp: in warp " +
                std::to_string(w0 / 32) + " of block " + tid_str(b.bid) + " lanes " + mask_hex(arrived) +
                " reached it while lanes " + mask_hex(skipped) + " (e.g. thread " + tid_str(skipper->tid) +
                ") skipped it and exited." + kUndefinedButCompletes;
    d.code = "RUNTIME_SKIPPED_BARRIER_NOTE";
    d.params_json = JsonObject()
                        .add("line", line)
                        .add("warp", static_cast<long long>(w0 / 32))
                        .add("block", tid_str(b.bid))
                        .add("arrived", mask_hex(arrived))
                        .add("skipped", mask_hex(skipped))
                        .add("thread", tid_str(skipper->tid))
                        .str();
    d.line = line;
    d.block = b.bid;
    d.thread = example->tid;
    d.has_ids = true;
    d.detail_json = "{\"other_thread\": " + ids_json(skipper->tid) + ", \"arrived_lanes\": \"" + mask_hex(arrived) +
                    "\", \"skipped_lanes\": \"" + mask_hex(skipped) + "\", \"warp\": " + std::to_string(w0 / 32) +
                    ", \"rule\": \"skipped_then_exited\"}";
    d.key = "skipped:" + std::to_string(line);
    d.order = b.linear_bid;
    // A skip inside a warp says more than whole warps skipping the same barrier at an earlier release
    // (a tree loop drops whole warps first, then halves of one).
    add_diag_over(std::move(d), "RUNTIME_SKIPPED_BARRIER_WARPS_NOTE");
    return;
  }
  if (!arrived_threads || skipped_warps.empty()) return;
  std::string warps = ranges_str(skipped_warps), warps_json;
  for (int w : skipped_warps) warps_json += (warps_json.empty() ? "" : ", ") + std::to_string(w);
  Diag d;
  d.kind = "note";
  d.message = "The __syncthreads() on line " + std::to_string(line) + " is skipped by whole warps: in block " +
              tid_str(b.bid) + " warps " + warps + " (e.g. thread " + tid_str(first_skipper->tid) +
              ") skipped it and exited while " + std::to_string(arrived_threads) + " threads reached it." +
              kUndefinedButCompletes;
  d.code = "RUNTIME_SKIPPED_BARRIER_WARPS_NOTE";
  d.params_json = JsonObject()
                      .add("line", line)
                      .add("block", tid_str(b.bid))
                      .add("warps", warps)
                      .add("thread", tid_str(first_skipper->tid))
                      .add("arrived", arrived_threads)
                      .str();
  d.line = line;
  d.block = b.bid;
  d.thread = first_arrived->tid;
  d.has_ids = true;
  d.detail_json = "{\"other_thread\": " + ids_json(first_skipper->tid) + ", \"skipped_warps\": [" + warps_json +
                  "], \"arrived_threads\": " + std::to_string(arrived_threads) + ", \"rule\": \"skipped_then_exited\"}";
  d.key = "skipped:" + std::to_string(line);
  d.order = b.linear_bid;
  add_diag(std::move(d));
}

// The first warp whose live lanes wait at two different barriers (-1: none). On sm_70+ such a warp
// hangs when the compiler emits the branch as a jump; a short branch it predicates completes
// (measured on an H200: docs/synchronization.md row 8, docs/gpu-validation.md).
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

// What a thread leaving a barrier receives: the reduction its call asked for over the predicates.
int barrier_result(detail::BarrierOp op, int count, int all, int any) {
  switch (op) {
    case detail::BarrierOp::kCount: return count;
    case detail::BarrierOp::kAnd: return all;
    case detail::BarrierOp::kOr: return any;
    case detail::BarrierOp::kPlain: break;
  }
  return 0;
}

}  // namespace

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
  if (warp >= 0) {
    d.code = "RUNTIME_DIVERGENT_BARRIER_PASSED_SPLIT";
    d.params_json = JsonObject()
                        .add("line", line)
                        .add("warp", warp)
                        .add("block", tid_str(b.bid))
                        .add("arrived", mask_hex(arrived))
                        .add("passed", mask_hex(passed))
                        .add("thread", tid_str(passer->tid))
                        .add("other_line", other_line)
                        .str();
  } else {
    d.code = "RUNTIME_DIVERGENT_BARRIER_PASSED_WARPS";
    d.params_json = JsonObject()
                        .add("line", line)
                        .add("block", tid_str(b.bid))
                        .add("thread", tid_str(waiter->tid))
                        .add("other_thread", tid_str(passer->tid))
                        .add("other_line", other_line)
                        .str();
  }
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
    // The lines as a list of the catalogue ("5 and 7" in English, "5, 7" in Korean: messages.AND).
    std::string lines_json = std::to_string(line_list.front());
    for (std::size_t k = 1; k < line_list.size(); ++k)
      lines_json = message_json("AND", JsonObject().raw("before", lines_json).add("after", line_list[k]).str());
    d.code = split >= 0 ? "RUNTIME_DIVERGENT_BARRIERS_SPLIT" : "RUNTIME_DIVERGENT_BARRIERS";
    JsonObject params;
    params.add("block", tid_str(b.bid))
        .raw("lines", lines_json)
        .add("thread", tid_str(first->tid))
        .add("line", first->line)
        .add("other_thread", tid_str(second->tid))
        .add("other_line", second->line);
    if (split >= 0) params.add("warp", split);
    d.params_json = params.str();
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
  if (!divergent && !b.diverged) check_skipped_barrier(b, site, line);
  for (auto& t : b.threads) {
    if (t.state != kAtBarrier) continue;
    if (b.diverged) {
      auto& r = b.reached[t.site];
      if (r.empty()) r.assign(b.threads.size(), 0);
      r[t.linear] = 1;
      b.site_line[t.site] = t.line;
    }
    t.passed_sites |= 1ull << (t.site % 64);
    t.result = barrier_result(t.op, count, all, any);
    t.state = kRunnable;
  }
  b.at_barrier = 0;
  b.barrier_generation++;
  b.events++;
  return true;
}

}  // namespace rt

namespace detail {

int block_barrier(int site, int line, BarrierOp op, int predicate) {
  using namespace rt;
  if (!g_job.fibers) rerun_with_fibers();
  Thread* me = t_thread;
  me->state = kAtBarrier;
  me->site = site;
  me->line = line;
  me->op = op;
  me->pred = predicate;
  wait_for_release(t_block->at_barrier, &t_block->barrier_sync[t_block->barrier_generation & 1]);
  return me->result;
}

void kernel_exit(int line) {
  // The fast path has no thread records; only the fiber scheduler asks where a thread left.
  if (rt::t_thread) rt::t_thread->exit_line = line;
}

void thread_fence(int line) { (void)line; __atomic_thread_fence(__ATOMIC_SEQ_CST); }

}  // namespace detail
}  // namespace wd
