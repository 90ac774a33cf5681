// The shared-memory initcheck (check mode, emulator/initcheck.py): a read of a __shared__ byte no
// thread of the block has written yet, like compute-sanitizer's initcheck for shared memory.
//
// The `initcheck` variant compiles the student's code with g++'s kernel-address sanitizer
// instrumentation in call mode, loads and stores both, without its runtime (toolchain.VARIANTS):
// every access of the student's code calls __asan_{load,store}N_noabort(address), defined here.
// Each shared arena (memory.cpp) has one byte per arena byte: 1 once a thread of the running block
// stored there. memory.cpp clears it when the arena is reset for a new block. A load that touches a
// byte still 0 reports an `uninitialized` diagnostic (one per arena and reading instruction, from
// the lowest block) with the instruction's address; Python maps it to the student's line.
// Atomics are stores to the instrumentation; atomics.hpp reads their word first in this variant.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "runtime.hpp"

namespace wd {
namespace rt {
namespace {
struct Arena {
  std::uintptr_t lo = 0, hi = 0;
  std::uint8_t* written = nullptr;  // one per byte: 1 once stored to in this block
  std::size_t elem = 1;
  const char* name = "";
  int line = 0;
  std::atomic<int> reports{0};
};
constexpr int kMaxArenas = 4096;
constexpr int kMaxReportsPerArena = 32;  // add_diag calls, not diagnostics (those are deduplicated)
Arena g_arenas[kMaxArenas];
std::atomic<int> g_arena_count{0};
std::mutex g_arena_mutex;
}  // namespace

void initcheck_arena(const void* data, std::size_t bytes, std::size_t elem, const char* name, int line) {
  if (bytes == 0) return;
  auto lo = reinterpret_cast<std::uintptr_t>(data);
  int n = g_arena_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    // An arena belongs to one worker (or one co-resident block): only its owner resets it.
    if (g_arenas[i].lo == lo && g_arenas[i].hi == lo + bytes) {
      memset(g_arenas[i].written, 0, bytes);
      return;
    }
  }
  std::lock_guard<std::mutex> lock(g_arena_mutex);
  n = g_arena_count.load(std::memory_order_relaxed);
  if (n >= kMaxArenas) return;  // not checked (more arenas than any real kernel has)
  Arena& a = g_arenas[n];
  a.written = new std::uint8_t[bytes]();
  a.elem = elem ? elem : 1;
  a.name = name;
  a.line = line;
  a.lo = lo;
  a.hi = lo + bytes;
  g_arena_count.store(n + 1, std::memory_order_release);
}

namespace {
inline Arena* arena_of(std::uintptr_t a, std::size_t n) {
  int count = g_arena_count.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i) {
    Arena& r = g_arenas[i];
    if (a < r.hi && a + n > r.lo) return &r;
  }
  return nullptr;
}

void stored(const void* p, std::size_t n) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  Arena* r = arena_of(a, n);
  if (!r) return;
  std::uintptr_t from = a > r->lo ? a : r->lo, to = a + n < r->hi ? a + n : r->hi;
  memset(r->written + (from - r->lo), 1, to - from);
}

void loaded(const void* p, std::size_t n, void* pc) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  Arena* r = arena_of(a, n);
  if (!r) return;
  std::uintptr_t from = a > r->lo ? a : r->lo, to = a + n < r->hi ? a + n : r->hi;
  std::uintptr_t first = 0;
  bool unwritten = false;
  for (std::uintptr_t b = from; b < to; ++b) {
    if (!r->written[b - r->lo]) {
      first = b;
      unwritten = true;
      break;
    }
  }
  if (!unwritten || r->reports.fetch_add(1, std::memory_order_relaxed) >= kMaxReportsPerArena) return;
  const auto& c = detail::t_ctx;
  unsigned long long index = (first - r->lo) / r->elem;
  char pcs[32];
  snprintf(pcs, sizeof pcs, "0x%llx", static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(pc)) - 1);
  Diag d;
  d.kind = "uninitialized";
  d.message = "shared '" + std::string(r->name) + "[" + std::to_string(index) + "]' read before any thread of the block wrote it";
  d.block = c.block_idx;
  d.thread = c.thread_idx;
  d.has_ids = true;
  d.order = c.block_idx.x + 1ULL * c.grid_dim.x * (c.block_idx.y + 1ULL * c.grid_dim.y * c.block_idx.z);
  d.detail_json = "{\"array\": " + json_str(r->name) + ", \"space\": \"shared\", \"index\": " + std::to_string(index) +
                  ", \"declared_line\": " + std::to_string(r->line) + ", \"pc\": \"" + pcs + "\"}";
  d.key = "uninit " + std::to_string(r->lo) + " " + pcs;
  add_diag(std::move(d));
}
}  // namespace
}  // namespace rt
}  // namespace wd

#ifdef WD_INITCHECK
// What the instrumented student code calls on every access (g++ -fsanitize=kernel-address,
// asan-instrumentation-with-call-threshold=0). The return address is in the student's code.
#define WD_IC_PC __builtin_return_address(0)
extern "C" {
void __asan_store1_noabort(void* p) { wd::rt::stored(p, 1); }
void __asan_store2_noabort(void* p) { wd::rt::stored(p, 2); }
void __asan_store4_noabort(void* p) { wd::rt::stored(p, 4); }
void __asan_store8_noabort(void* p) { wd::rt::stored(p, 8); }
void __asan_store16_noabort(void* p) { wd::rt::stored(p, 16); }
void __asan_storeN_noabort(void* p, std::size_t n) { wd::rt::stored(p, n); }
void __asan_load1_noabort(void* p) { wd::rt::loaded(p, 1, WD_IC_PC); }
void __asan_load2_noabort(void* p) { wd::rt::loaded(p, 2, WD_IC_PC); }
void __asan_load4_noabort(void* p) { wd::rt::loaded(p, 4, WD_IC_PC); }
void __asan_load8_noabort(void* p) { wd::rt::loaded(p, 8, WD_IC_PC); }
void __asan_load16_noabort(void* p) { wd::rt::loaded(p, 16, WD_IC_PC); }
void __asan_loadN_noabort(void* p, std::size_t n) { wd::rt::loaded(p, n, WD_IC_PC); }
void __asan_handle_no_return() {}
}
#endif
