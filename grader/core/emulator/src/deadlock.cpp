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
                  std::to_string(spin.empty() ? 0 : spin.front().line) + "}";
  finish("deadlock", msg, {d});
}

[[noreturn]] void report_timeout(uint3 bid, uint3 tid, int line) {
  Diag d;
  d.kind = "timeout";
  d.message = "The kernel ran past the time limit of " + std::to_string(static_cast<int>(g_job.time_limit_s + 0.5)) +
              " s; thread " + tid_str(tid) + " of block " + tid_str(bid) + " was looping on line " + std::to_string(line) + ".";
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
