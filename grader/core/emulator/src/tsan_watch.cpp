// Words several threads store to (check mode): what ThreadSanitizer alone cannot tell.
//
// When TSan reports two plain writes of one word (write-after-write), the word is watched:
//  - every later read of it gets a full race check. TSan skips checking a read that follows the
//    same thread's own write of the word (`s[0] = t; int k = s[0];`: the write covers the read),
//    so the read of a word other threads store to with no barrier between was never reported;
//    a release on a private sync object (nobody acquires it) starts a new epoch for the thread,
//    which makes TSan check the read against the other threads' writes, adding no ordering.
//  - the values the racing stores write are compared: the value before each later store of the
//    word is the previous store's, and at the end of the barrier interval (or of the block) the
//    word holds the last one. Stores of different values append "<address> <size> differs" to
//    stores.txt in the job's folder (races.py turns the note into a race for them).
// The hooks replace libtsan's __tsan_readN/__tsan_writeN for N = 1, 2, 4, 8 (the instrumented
// code calls them; this object defines them in the executable, so the student's calls bind here)
// and forward to the _pc entry points with the caller's pc, which TSan treats the same.
// Compiled to nothing in the fast variant.
#ifdef WD_TSAN
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "runtime.hpp"
#include "tsan.hpp"

extern "C" {
void __tsan_read1_pc(void* addr, void* pc);
void __tsan_read2_pc(void* addr, void* pc);
void __tsan_read4_pc(void* addr, void* pc);
void __tsan_read8_pc(void* addr, void* pc);
void __tsan_write1_pc(void* addr, void* pc);
void __tsan_write2_pc(void* addr, void* pc);
void __tsan_write4_pc(void* addr, void* pc);
void __tsan_write8_pc(void* addr, void* pc);
int __tsan_get_report_data(void* report, const char** description, int* count, int* stack_count, int* mop_count,
                           int* loc_count, int* mutex_count, int* thread_count, int* unique_tid_count,
                           void** sleep_trace, std::uintptr_t trace_size);
int __tsan_get_report_mop(void* report, std::uintptr_t idx, int* tid, void** addr, int* size, int* write,
                          int* atomic, void** trace, std::uintptr_t trace_size);
}

namespace wd {
namespace rt {
namespace {

constexpr int kMaxWatched = 64;

struct Watch {
  std::uintptr_t addr = 0;
  int size = 0;
  unsigned long long block = 0, generation = 0;
  unsigned char value[8] = {};  // the first racing store's value
  bool open = false;  // still comparing values (the barrier interval of the race has not ended)
  bool differs = false, written = false;
};

Watch g_watch[kMaxWatched];
std::atomic<int> g_watch_count{0};
std::atomic_flag g_lock = ATOMIC_FLAG_INIT;  // a spin lock: TSan intercepts pthread mutexes
char g_epoch;  // released to start a new epoch, never acquired

struct Lock {
  Lock() { while (g_lock.test_and_set(std::memory_order_acquire)) {} }
  ~Lock() { g_lock.clear(std::memory_order_release); }
};

bool overlaps(const Watch& w, std::uintptr_t a, int size) { return a < w.addr + w.size && w.addr < a + size; }

void compare(Watch& w, const void* now) {
  if (std::memcmp(w.value, now, static_cast<std::size_t>(w.size)) != 0) w.differs = true;
}

void on_read(void* addr, int size) {
  int n = g_watch_count.load(std::memory_order_acquire);
  auto a = reinterpret_cast<std::uintptr_t>(addr);
  for (int i = 0; i < n; ++i)
    if (overlaps(g_watch[i], a, size)) {
      __tsan_release(&g_epoch);
      return;
    }
}

void on_write(void* addr, int size) {
  int n = g_watch_count.load(std::memory_order_acquire);
  if (n == 0) return;
  auto a = reinterpret_cast<std::uintptr_t>(addr);
  unsigned long long block, generation;
  bool in_block = tsan_block_epoch(&block, &generation);
  Lock lock;
  for (int i = 0; i < n; ++i) {
    Watch& w = g_watch[i];
    if (!w.open || w.addr != a || w.size != size) continue;
    // Before this store the word holds the previous store's value; a store in a later barrier
    // interval (or another block) ends the comparison.
    compare(w, addr);
    if (!in_block || block != w.block || generation != w.generation) w.open = false;
  }
}

}  // namespace

void tsan_watch_block_end(unsigned long long block) {
  int n = g_watch_count.load(std::memory_order_acquire);
  if (n == 0) return;
  Lock lock;
  for (int i = 0; i < n; ++i) {
    Watch& w = g_watch[i];
    if (w.open && w.block == block) {
      compare(w, reinterpret_cast<const void*>(w.addr));  // the last store's value
      w.open = false;
    }
    if (w.differs && !w.written) {
      w.written = true;
      std::string path = g_job.out_dir + "/stores.txt";
      if (FILE* f = fopen(path.c_str(), "a")) {
        fprintf(f, "%llu %d differs\n", static_cast<unsigned long long>(w.addr), w.size);
        fclose(f);
      }
    }
  }
}

}  // namespace rt
}  // namespace wd

extern "C" {

// Called by TSan for every report it prints (in the thread that made the access, before the
// access itself, while TSan holds its report lock: no TSan-intercepted call here).
void __tsan_on_report(void* report) {
  using namespace wd::rt;
  const char* description = nullptr;
  int count, stacks, mops = 0, locs, mutexes, threads, tids;
  void* trace[1];  // TSan writes through these even when asked for no frames
  if (!__tsan_get_report_data(report, &description, &count, &stacks, &mops, &locs, &mutexes, &threads, &tids,
                              trace, 1))
    return;
  if (!description || std::strcmp(description, "data-race") != 0 || mops < 2) return;
  int tid[2], size[2], write[2], atomic[2];
  void* addr[2];
  for (int i = 0; i < 2; ++i)
    if (!__tsan_get_report_mop(report, i, &tid[i], &addr[i], &size[i], &write[i], &atomic[i], trace, 1)) return;
  if (!write[0] || !write[1] || atomic[0] || atomic[1] || addr[0] != addr[1] || size[0] > 8) return;
  unsigned long long block, generation;
  if (!tsan_block_epoch(&block, &generation)) return;
  Lock lock;
  int n = g_watch_count.load(std::memory_order_relaxed);
  auto a = reinterpret_cast<std::uintptr_t>(addr[0]);
  for (int i = 0; i < n; ++i)
    if (g_watch[i].addr == a && g_watch[i].size == size[0]) return;
  if (n >= kMaxWatched) return;
  Watch& w = g_watch[n];
  w.addr = a;
  w.size = size[0];
  w.block = block;
  w.generation = generation;
  std::memcpy(w.value, addr[0], static_cast<std::size_t>(size[0]));  // the earlier store's value
  w.open = true;
  g_watch_count.store(n + 1, std::memory_order_release);
}

#define WD_HOOKS(N)                                               \
  void __tsan_read##N(void* addr) {                               \
    wd::rt::on_read(addr, N);                                     \
    __tsan_read##N##_pc(addr, __builtin_return_address(0));       \
  }                                                               \
  void __tsan_write##N(void* addr) {                              \
    wd::rt::on_write(addr, N);                                    \
    __tsan_write##N##_pc(addr, __builtin_return_address(0));      \
  }
WD_HOOKS(1)
WD_HOOKS(2)
WD_HOOKS(4)
WD_HOOKS(8)
#undef WD_HOOKS
}
#endif
