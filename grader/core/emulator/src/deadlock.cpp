// Deadlock and timeout reports: which threads wait where (barriers, warp operations) and which
// spin, in the words and detail the judge shows.
#include <algorithm>
#include <cstdio>

#include "scheduler.hpp"

namespace wd {
namespace rt {
namespace {

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

// The groups as a list of messages of the catalogue (messages.RUNTIME_GROUP): what groups_text says.
std::string groups_said(const std::vector<WaitGroup>& gs) {
  std::string s = "[";
  for (auto& g : gs) {
    std::string code = std::string("RUNTIME_GROUP.") +
                       (g.what == "barrier" ? "wait_barrier" : g.what == "warp operation" ? "wait_warp" : "spin");
    JsonObject params;
    params.add("thread", tid_str(g.example)).add("line", g.line);
    if (g.count == 1) code += "_one";
    else params.add("count", g.count);
    s += std::string(s.size() > 1 ? ", " : "") + message_json(code, params.str());
  }
  return s + "]";
}

// Two lanes of one warp that wait in warp operations which can never satisfy each other: `a`'s mask
// names `b`, and `b` waits in another kind of operation or with another mask (warp.cpp's release
// rule, the PTX ISA's). False when every lane at a warp operation waits for something else.
bool warp_ops_mismatch(const Block& b, const Thread*& a, const Thread*& other, int& warp) {
  int n = static_cast<int>(b.threads.size());
  for (int w0 = 0; w0 < n; w0 += 32) {
    for (int i = w0; i < n && i < w0 + 32; ++i) {
      const Thread& t = b.threads[i];
      if (t.state != kAtWarp || t.wop == detail::kCoalesce) continue;
      for (int j = w0; j < n && j < w0 + 32; ++j) {
        const Thread& u = b.threads[j];
        if (j == i || u.state != kAtWarp || !(t.wmask >> (j - w0) & 1)) continue;
        if (u.wop != t.wop || u.wmask != t.wmask) {
          a = &t, other = &u, warp = w0 / 32;
          return true;
        }
      }
    }
  }
  return false;
}

// The lanes of warp `warp` waiting in the same operation with the same mask as `t`.
unsigned lanes_like(const Block& b, const Thread& t, int warp) {
  unsigned m = 0;
  int n = static_cast<int>(b.threads.size());
  for (int j = 0; j < 32 && warp * 32 + j < n; ++j) {
    const Thread& u = b.threads[warp * 32 + j];
    if (u.state == kAtWarp && u.wop == t.wop && u.wmask == t.wmask && u.wline == t.wline) m |= 1u << j;
  }
  return m;
}

}  // namespace

std::string tid_str(uint3 v) {
  char b[64];
  snprintf(b, sizeof b, "(%u,%u,%u)", v.x, v.y, v.z);
  return b;
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
  bool grid = g_job.grid.x * g_job.grid.y * g_job.grid.z > 1;
  d.code = proven ? "RUNTIME_DEADLOCK_PROVEN" : grid ? "RUNTIME_DEADLOCK_SPINNING_GRID" : "RUNTIME_DEADLOCK_SPINNING";
  JsonObject params;
  params.add("block", tid_str(b.bid)).raw("waiting", groups_said(waiting));
  if (!proven) params.raw("spinning", groups_said(spin));
  d.params_json = params.str();
  d.line = waiting.empty() ? 0 : waiting.front().line;
  d.block = b.bid;
  d.thread = waiting.empty() ? uint3{0, 0, 0} : waiting.front().example;
  d.has_ids = true;
  d.detail_json = "{\"proven\": " + std::string(proven ? "true" : "false") + ", \"waiting\": " + groups_json(waiting) +
                  ", \"spinning\": " + groups_json(spin) + ", \"spin_line\": " +
                  std::to_string(spin.empty() ? 0 : spin.front().line);
  // Lanes of one warp in warp operations that never satisfy each other (row 12c): say which lanes wait
  // where, with their masks, and why it hangs.
  const Thread* a = nullptr;
  const Thread* other = nullptr;
  int wnum = -1;
  if (proven && warp_ops_mismatch(b, a, other, wnum)) {
    unsigned lanes = lanes_like(b, *a, wnum), other_lanes = lanes_like(b, *other, wnum);
    msg = "Deadlock in warp " + std::to_string(wnum) + " of block " + tid_str(b.bid) + ": lanes " + mask_hex(lanes) +
          " wait in the warp operation on line " + std::to_string(a->wline) + " (mask " + mask_hex(a->wmask) +
          ") for lanes " + mask_hex(other_lanes) + ", which wait in another warp operation on line " +
          std::to_string(other->wline) + " (mask " + mask_hex(other->wmask) +
          "). A warp operation completes only when every lane of its mask that has not exited reaches the same "
          "operation with the same mask: on sm_70+ this hangs.";
    d.message = msg;
    d.code = "RUNTIME_DEADLOCK_WARP_OPS";
    d.params_json = JsonObject()
                        .add("warp", wnum)
                        .add("block", tid_str(b.bid))
                        .add("lanes", mask_hex(lanes))
                        .add("line", a->wline)
                        .add("mask", mask_hex(a->wmask))
                        .add("other_lanes", mask_hex(other_lanes))
                        .add("other_line", other->wline)
                        .add("other_mask", mask_hex(other->wmask))
                        .str();
    d.line = a->wline;
    d.thread = a->tid;
    d.detail_json += ", \"warp\": " + std::to_string(wnum) + ", \"lanes\": \"" + mask_hex(lanes) +
                     "\", \"other_lanes\": \"" + mask_hex(other_lanes) + "\", \"other_line\": " +
                     std::to_string(other->wline) + ", \"other_thread\": " + ids_json(other->tid) +
                     ", \"rule\": \"warp_operations_never_meet\"";
  }
  d.detail_json += "}";
  finish("deadlock", msg, {d});
}

[[noreturn]] void report_timeout(uint3 bid, uint3 tid, int line) {
  Diag d;
  d.kind = "timeout";
  d.message = "The kernel ran past the time limit of " + std::to_string(static_cast<int>(g_job.time_limit_s + 0.5)) +
              " s of CPU time; thread " + tid_str(tid) + " of block " + tid_str(bid) + " was looping on line " + std::to_string(line) + ".";
  d.code = "RUNTIME_TIMEOUT";
  d.params_json = JsonObject()
                      .add("limit", static_cast<long long>(g_job.time_limit_s + 0.5))
                      .add("thread", tid_str(tid))
                      .add("block", tid_str(bid))
                      .add("line", line)
                      .str();
  d.line = line;
  d.block = bid;
  d.thread = tid;
  d.has_ids = true;
  d.detail_json = "{}";
  finish("timeout", d.message, {d});
}

}  // namespace rt
}  // namespace wd
