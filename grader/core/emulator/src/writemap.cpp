// The write map (grader/core/writemap.py): for every element of an OUT/INOUT buffer, which thread
// wrote it last and how many times the writing thread changed.
//
// The `writemap` variant compiles the student's code with g++'s kernel-address sanitizer
// instrumentation in call mode and without its runtime (toolchain.VARIANTS): every store the
// student's code makes (plain, atomic, through a pointer of any type) becomes a call of
// __asan_storeN_noabort(address), defined here. A store that lands in a recorded buffer updates
// that buffer's side file, mapped shared from the work directory (Python created it at its size,
// jobs.write_job), so what is recorded survives a fault or a kill. The side file holds uint32 per
// element (the writing linear thread id + 1, 0: never written), then uint8 per element (how many
// times the writer changed, saturating at 255). Python validates it on read (emulator/writemap.py):
// the student's code shares this process and may have written anything there.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>

#include "runtime.hpp"

namespace wd {
namespace rt {
namespace {
struct Recorded {
  std::uintptr_t lo = 0, hi = 0;  // the buffer's bytes [lo, hi)
  std::size_t elem = 1;
  std::uint32_t* writer = nullptr;
  std::uint8_t* hits = nullptr;
};
constexpr int kMaxRecorded = 16;
Recorded g_recorded[kMaxRecorded];
int g_recorded_count = 0;
}  // namespace

bool writemap_attach(const Buffer& b, const std::string& path) {
  if (g_recorded_count >= kMaxRecorded || b.count == 0) return false;
  int fd = open(path.c_str(), O_RDWR);
  if (fd < 0) return false;
  struct stat st;
  std::size_t bytes = b.count * 5;
  if (fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) != bytes) {
    close(fd);
    return false;
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return false;
  Recorded& r = g_recorded[g_recorded_count++];
  r.lo = reinterpret_cast<std::uintptr_t>(b.data);
  r.hi = r.lo + b.bytes;
  r.elem = b.elem;
  r.writer = static_cast<std::uint32_t*>(p);
  r.hits = static_cast<std::uint8_t*>(p) + b.count * 4;
  return true;
}

namespace {
inline std::uint32_t current_thread_id() {
  const auto& c = detail::t_ctx;
  std::uint64_t block = c.block_idx.x + 1ULL * c.grid_dim.x * (c.block_idx.y + 1ULL * c.grid_dim.y * c.block_idx.z);
  std::uint64_t tpb = 1ULL * c.block_dim.x * c.block_dim.y * c.block_dim.z;
  std::uint64_t thread = c.thread_idx.x + 1ULL * c.block_dim.x * (c.thread_idx.y + 1ULL * c.block_dim.y * c.thread_idx.z);
  return static_cast<std::uint32_t>(block * tpb + thread + 1);
}

inline void record(const void* addr, std::size_t n) {
  auto a = reinterpret_cast<std::uintptr_t>(addr);
  for (int i = 0; i < g_recorded_count; ++i) {
    Recorded& r = g_recorded[i];
    if (a >= r.hi || a + n <= r.lo) continue;
    std::uintptr_t from = a > r.lo ? a : r.lo, to = a + n < r.hi ? a + n : r.hi;
    std::size_t first = (from - r.lo) / r.elem, last = (to - 1 - r.lo) / r.elem;
    std::uint32_t id = current_thread_id();
    for (std::size_t e = first; e <= last; ++e) {
      // Blocks on other worker threads may store to the same element: relaxed atomics keep each
      // word whole (which thread is "last" between them is as undefined as on a GPU).
      if (__atomic_load_n(&r.writer[e], __ATOMIC_RELAXED) != id) {
        __atomic_store_n(&r.writer[e], id, __ATOMIC_RELAXED);
        std::uint8_t h = __atomic_load_n(&r.hits[e], __ATOMIC_RELAXED);
        if (h < 255) __atomic_store_n(&r.hits[e], static_cast<std::uint8_t>(h + 1), __ATOMIC_RELAXED);
      }
    }
    return;
  }
}
}  // namespace
}  // namespace rt
}  // namespace wd

#ifdef WD_WRITEMAP
// What the instrumented student code calls on every store (g++ -fsanitize=kernel-address,
// asan-instrumentation-with-call-threshold=0, reads not instrumented).
extern "C" {
void __asan_store1_noabort(void* p) { wd::rt::record(p, 1); }
void __asan_store2_noabort(void* p) { wd::rt::record(p, 2); }
void __asan_store4_noabort(void* p) { wd::rt::record(p, 4); }
void __asan_store8_noabort(void* p) { wd::rt::record(p, 8); }
void __asan_store16_noabort(void* p) { wd::rt::record(p, 16); }
void __asan_storeN_noabort(void* p, std::size_t n) { wd::rt::record(p, n); }
// Loads are not instrumented (--param asan-instrument-reads=0); these exist for a compiler that
// instruments them anyway (no-ops).
void __asan_load1_noabort(void*) {}
void __asan_load2_noabort(void*) {}
void __asan_load4_noabort(void*) {}
void __asan_load8_noabort(void*) {}
void __asan_load16_noabort(void*) {}
void __asan_loadN_noabort(void*, std::size_t) {}
void __asan_handle_no_return() {}
}
#endif
