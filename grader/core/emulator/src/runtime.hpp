// Private declarations shared by the runtime's translation units (never seen by student code).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "warpdrill/detail/qualifiers.hpp"
#include "warpdrill/detail/types.hpp"
#include "warpdrill/detail/context.hpp"
#include "warpdrill/detail/warp.hpp"

// Provided by the generated harness at the end of the student's translation unit.
extern "C" void wd_user_setup(void* const* args);
extern "C" void wd_user_thread();
// The kernel's coroutine copy for this thread (its frame), or nullptr when it has none (coro.py).
extern "C" void* wd_user_coro();

namespace wd {
namespace detail {
void tick_call(int line);  // the out-of-line loop tick of the race-checking variant
}
namespace rt {

// Process exit codes understood by the Python backend (grader/core/backends/emulator.py).
enum ExitCode {
  kExitDone = 0,  // result.json written (whatever the kernel did)
  kExitRerunFibers = 3,  // the fast path met a loop that may wait on another thread: rerun with fibers
  kExitBadJob = 4,  // the job file is malformed (our bug)
  kExitRerunSerial = 5,  // blocks on two worker threads updated one word without atomics: rerun on one (rmw.cpp)
};

struct Buffer {
  std::string name, role, file;
  std::size_t count = 0, elem = 0, bytes = 0;
  char* data = nullptr;
  char* slack_end = nullptr;  // align end16: [data + bytes, slack_end) holds slack_byte() until the kernel writes there
  unsigned char tag = 0;  // this buffer's byte in its slack pattern
  // The slack's byte at `p`: every 4-byte word is 0xFFFFA5<tag> (little endian), a NaN as a float and,
  // two words together, as a double, whose payload names the buffer: a value read from one buffer's
  // slack and written into another's does not look untouched.
  unsigned char slack_byte(const char* p) const {
    static const unsigned char pattern[3] = {0xA5, 0xFF, 0xFF};
    std::size_t k = static_cast<std::size_t>(p - data) % 4;
    return k == 0 ? tag : pattern[k - 1];
  }
};

struct Job {
  bool fibers = false;  // false: fast path (threads are plain calls)
  bool coro = false;  // mode coro: a block's threads are coroutine frames resumed between barriers (coro.cpp)
  int workers = 1;
  bool start_aligned = false;  // check mode: buffers start at a page so underflows fault
  bool align16 = false;  // buffers start 16-byte aligned (16-byte vector types); their slack is checked at the end
  dim3 grid, block;
  std::size_t shared_bytes = 0;
  double time_limit_s = 5.0;
  double progress_window_s = 1.5;
  // A cooperative launch (job key `cooperative 1`, LaunchConfig.cooperative): grid.sync() is a
  // grid-wide barrier instead of CUDA's launch failure.
  bool cooperative = false;
  // Every block co-resident in an ordinary launch (job key `coresident 1`, LaunchConfig.coresident):
  // how a GPU runs a grid that fits on it at once. grid.sync() still fails the launch.
  bool coresident = false;
  std::string out_dir;
  std::vector<Buffer> buffers;
  std::vector<void*> args;  // what wd_user_setup receives, in parameter order
};
extern Job g_job;

// ---- diagnostics and results (report.cpp) ----
struct Diag {
  std::string kind, message;  // message: the English, for logs; code and params say it (grader/core/messages.py)
  std::string code;  // a code of the message catalogue ("RUNTIME_FAULT.assert"); empty: only `message`
  std::string params_json;  // its parameters, a JSON object (JsonObject); empty: none
  int line = 0;
  uint3 block{0, 0, 0}, thread{0, 0, 0};
  bool has_ids = false;
  std::string detail_json;  // a JSON object
  std::string key;  // deduplication key
  unsigned long long order = 0;  // linear block id, to keep the lowest block on duplicates
};
// Keeps one diagnostic per key, from the lowest block. `refine`: `d` is a better wording of a report
// this block already made under the same key, and replaces it unless a lower block's is kept.
void add_diag(Diag d, bool refine = false);
// The same, except that a report of this block under the same key whose code is `weaker_code` (a less
// telling wording of the same fact) is replaced by `d`.
void add_diag_over(Diag d, const std::string& weaker_code);
[[noreturn]] void finish(const char* status, const std::string& message, std::vector<Diag> fatal);
void write_result_and_exit_from_signal(const char* json_tail);
std::string json_str(const std::string& s);
// One JSON object written field by field: a message's parameters (strings, numbers, nested messages).
class JsonObject {
 public:
  JsonObject& add(const char* key, const std::string& value) { return raw(key, json_str(value)); }
  JsonObject& add(const char* key, long long value) { return raw(key, std::to_string(value)); }
  JsonObject& raw(const char* key, const std::string& json) {
    body_ += (body_.empty() ? "" : ", ") + json_str(key) + ": " + json;
    return *this;
  }
  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};
// A message of the catalogue as JSON: {"code": code, "params": params}.
std::string message_json(const std::string& code, const std::string& params = "{}");
std::string ids_json(uint3 v);
double now_s();
extern double g_start_s;
// The grid's run alone (main.cpp): wall and process CPU seconds from the first block to the last
// worker's end, written to the result file as launch_s / launch_cpu_s (-1: the grid did not finish).
extern double g_launch_s, g_launch_cpu_s;
double process_cpu_s();
// Time limits count CPU time, not wall-clock time: a worker starved by other work on the machine
// must not turn a correct submission into TIME_LIMIT (the platform's fault, not the student's). The
// clock is the process's CPU seconds, every thread together: what the kernel costs, however many
// worker threads it was spread over (grader/core/emulator/run_limits.py charges the same clock). The
// sandbox's wall-clock kill stays as a backstop for a run that sleeps.
double limit_clock_s();  // process CPU seconds (user + system, all threads)
double thread_cpu_s();  // this OS thread's CPU seconds (a block runs on one thread)
inline bool over_time_limit() { return limit_clock_s() > g_job.time_limit_s; }

// ---- guarded memory (memory.cpp) ----
enum RegionKind { kBuffer, kShared, kDynShared, kStackGuard };
struct Region {
  char* lo;  // the guarded mapping: [lo, hi)
  char* hi;
  char* data;  // first byte of the object
  std::size_t bytes, elem;
  RegionKind kind;
  const char* name;
  int line;
};
char* guarded_alloc(std::size_t bytes, bool start_aligned, std::size_t align, char** map_lo, char** map_hi);
void register_region(const Region& r);
const Region* find_region(const char* addr);
void install_fault_handlers();
void install_altstack();
void shared_new_block();
struct SharedState;  // one block's shared arenas (memory.cpp), for co-resident blocks
SharedState* shared_state_new();
void shared_state_swap(SharedState* s);  // exchange this worker's arenas with *s
void shared_reset_worker();

// ---- the write map (writemap.cpp) ----
// Record the stores of the writemap variant into `b` in the side file at `path` (b.count * 5 bytes).
bool writemap_attach(const Buffer& b, const std::string& path);

// ---- the shared-memory initcheck (initcheck.cpp, the initcheck variant) ----
// A shared arena starts a block: nothing of [data, data + bytes) is written yet.
void initcheck_arena(const void* data, std::size_t bytes, std::size_t elem, const char* name, int line);

// ---- scheduling (scheduler.cpp; fibers, barriers, warps, deadlocks: scheduler.hpp) ----
void run_worker(int worker);
// Check mode: the running block's linear id and barrier generation (false outside a block).
bool tsan_block_epoch(unsigned long long* block, unsigned long long* generation);

// ---- watched words of write-after-write races (tsan_watch.cpp, check mode only) ----
void tsan_watch_block_end(unsigned long long block);  // the block has ended: finish comparing values
}  // namespace rt
}  // namespace wd
