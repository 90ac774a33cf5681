// Guarded memory: device buffers and shared arrays sit against PROT_NONE guard pages, and the
// SIGSEGV handler maps a fault address back to the buffer/array and element the kernel touched.
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "runtime.hpp"
#include "tsan.hpp"
#include "warpdrill/detail/shared.hpp"

namespace wd {
namespace rt {

namespace {
constexpr std::size_t kPage = 4096;
}  // namespace
constexpr std::size_t kMaxStaticShared = 48 * 1024;
namespace {
constexpr int kMaxRegions = 1 << 16;
Region g_regions[kMaxRegions];
std::atomic<int> g_region_count{0};

std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

// Per worker: one arena per __shared__ declaration site, plus the dynamic shared arena.
struct SharedSlot {
  char* data = nullptr;
  std::size_t bytes = 0;
  unsigned long long generation = 0;
  char* map_lo = nullptr;  // the guarded mapping [map_lo, map_hi): one guard page at each end
  char* map_hi = nullptr;
};
thread_local std::vector<SharedSlot> t_slots;
thread_local SharedSlot t_dynamic;
thread_local unsigned long long t_generation = 1;
}  // namespace

char* guarded_alloc(std::size_t bytes, bool start_aligned, std::size_t align, char** map_lo, char** map_hi) {
  std::size_t body = round_up(bytes == 0 ? 1 : bytes, kPage);
  std::size_t total = body + 2 * kPage;
  void* p = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  char* lo = static_cast<char*>(p);
  if (bytes > 0) mprotect(lo + kPage, body, PROT_READ | PROT_WRITE);
  *map_lo = lo;
  *map_hi = lo + total;
  if (start_aligned || bytes == 0) return bytes == 0 ? lo + kPage + body : lo + kPage;
  char* end = lo + kPage + body;
  std::size_t a = align ? align : 1;
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(end - bytes) & ~(a - 1));
}

void register_region(const Region& r) {
  int i = g_region_count.fetch_add(1);
  if (i < kMaxRegions) g_regions[i] = r;
#ifdef WD_TSAN
  // The arena map lets the backend name the array and index of a racing address.
  if (r.kind != kStackGuard) {
    std::string path = g_job.out_dir + "/arenas.txt";
    if (FILE* f = fopen(path.c_str(), "a")) {
      fprintf(f, "%s %s %llu %zu %zu\n", r.kind == kBuffer ? "global" : "shared", r.name,
              static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(r.data)), r.bytes, r.elem);
      fclose(f);
    }
  }
#endif
}

const Region* find_region(const char* addr) {
  int n = g_region_count.load();
  if (n > kMaxRegions) n = kMaxRegions;
  for (int i = 0; i < n; ++i) {
    if (addr >= g_regions[i].lo && addr < g_regions[i].hi) return &g_regions[i];
  }
  return nullptr;
}

void shared_new_block() { ++t_generation; }

// A co-resident block of a cooperative launch keeps its own arenas while other blocks run.
struct SharedState {
  std::vector<SharedSlot> slots;
  SharedSlot dynamic;
  unsigned long long generation = 1;
};
SharedState* shared_state_new() { return new SharedState(); }
void shared_state_swap(SharedState* s) {
  std::swap(t_slots, s->slots);
  std::swap(t_dynamic, s->dynamic);
  std::swap(t_generation, s->generation);
}

static char* shared_arena(SharedSlot& slot, std::size_t bytes, std::size_t align, std::size_t elem,
                          RegionKind kind, const char* name, int line) {
  if (slot.data == nullptr || slot.bytes != bytes) {
    char *lo, *hi;
    slot.data = guarded_alloc(bytes, false, align, &lo, &hi);
    if (slot.data == nullptr) {
      finish("internal", "cannot map shared memory", {});
    }
    slot.bytes = bytes;
    slot.map_lo = lo;
    slot.map_hi = hi;
    slot.generation = 0;  // a new mapping is reset and poisoned below
    register_region(Region{lo, hi, slot.data, bytes, elem ? elem : 1, kind, name, line});
  }
  if (slot.generation != t_generation) {
    slot.generation = t_generation;
#ifdef WD_TSAN
    // Blocks are not ordered with each other in the race check, and this arena held the previous
    // block's shared memory: map it afresh while TSan ignores accesses, which resets its shadow
    // (otherwise the previous block's accesses would race with this block's). The first mapping
    // is reset the same way (TSan would count a plain mmap as a write by this thread).
    if (bytes) {  // 0 bytes: the body stays a guard page
      __tsan_ignore_thread_begin();
      char* body = slot.map_lo + kPage;
      mmap(body, static_cast<std::size_t>(slot.map_hi - kPage - body), PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
      __tsan_ignore_thread_end();
    }
    // A volatile loop, not memset: TSan intercepts memset and would blame the first thread of
    // the block for writing every slot.
    volatile unsigned char* p = reinterpret_cast<volatile unsigned char*>(slot.data);
    for (std::size_t i = 0; i < bytes; ++i) p[i] = 0xFF;
#else
    if (bytes) memset(slot.data, 0xFF, bytes);  // poison: a read before any write shows up as NaN / -1
#endif
#ifdef WD_INITCHECK
    initcheck_arena(slot.data, bytes, elem ? elem : 1, name, line);  // nothing of it is written in this block
#endif
  }
  return slot.data;
}

}  // namespace rt

namespace detail {
void* shared_alloc(int site, const char* name, int line, std::size_t bytes, std::size_t align, std::size_t elem) {
  if (site < 0) site = 0;
  if (static_cast<std::size_t>(site) >= rt::t_slots.size()) rt::t_slots.resize(site + 1);
  if (rt::t_slots[site].data == nullptr) {
    // ptxas refuses a kernel whose static shared memory exceeds 48 KiB; refuse it here too
    // (and before mapping a student-chosen size).
    std::size_t total = bytes;
    for (auto& slot : rt::t_slots) total += slot.bytes;
    if (total > rt::kMaxStaticShared) {
      rt::Diag d;
      d.kind = "cuda_error";
      d.message = "Too much shared data: __shared__ '" + std::string(name) + "' on line " + std::to_string(line) +
                  " brings the kernel's static shared memory to " + std::to_string(total) +
                  " bytes; the limit is 49152 bytes (48 KiB) per block.";
      d.line = line;
      d.code = "RUNTIME_TOO_MUCH_SHARED";
      d.params_json = rt::JsonObject().add("array", name).add("line", line).add("bytes", static_cast<long long>(total)).str();
      d.detail_json = "{\"array\": " + rt::json_str(name) + ", \"bytes\": " + std::to_string(total) + "}";
      rt::finish("fault", d.message, {d});
    }
  }
  return rt::shared_arena(rt::t_slots[site], bytes, align, elem, rt::kShared, name, line);
}

void* dynamic_shared_base(const char* name, std::size_t align, std::size_t elem) {
  (void)align;
  return rt::shared_arena(rt::t_dynamic, rt::g_job.shared_bytes, 16, elem, rt::kDynShared, name, 0);
}
}  // namespace detail

namespace rt {

// ---- the fault handler ----

namespace {
// One buffer per worker thread: several blocks may fault at once, and only the first to
// claim the result file writes it (write_result_and_exit_from_signal); the others must not
// scribble over the text it is writing.
thread_local char g_fault_json[8192];

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "signal";
  }
}

void on_fault(int sig, siginfo_t* info, void* uctx) {
  auto* uc = static_cast<ucontext_t*>(uctx);
  unsigned long long pc = static_cast<unsigned long long>(uc->uc_mcontext.gregs[REG_RIP]);
  bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
  const char* addr = static_cast<const char*>(info->si_addr);
  const auto& c = detail::t_ctx;
  char what[1024];
  // The message as a code of grader/core/messages.py and its parameters (a JSON object), beside the English.
  char params[1024] = "{}";
  const char* code = "RUNTIME_FAULT.trap";
  const char* kind = "cuda_error";
  const char* access = write ? "write" : "read";
  const char* access_json = write ? "{\"code\": \"WORDS.write\", \"params\": {}}"
                                  : "{\"code\": \"WORDS.read\", \"params\": {}}";
  long long index = 0;
  const char* name = "";
  const char* space = "";
  int decl_line = 0;
  if (sig == SIGSEGV || sig == SIGBUS) {
    const Region* r = find_region(addr);
    auto sp = static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
    auto a = reinterpret_cast<std::uintptr_t>(addr);
    bool near_sp = a + 65536 > sp && a < sp + 4096;  // a push or frame just below the stack pointer
    if ((r && r->kind == kStackGuard) || (!r && near_sp)) {
      kind = "stack_overflow";
      code = "RUNTIME_FAULT.stack_overflow";
      snprintf(what, sizeof what, "stack overflow (a thread used more than its 64 KiB stack: deep recursion or a huge local array)");
    } else if (r) {
      kind = "out_of_bounds";
      long long off = addr - r->data;
      index = off >= 0 ? off / static_cast<long long>(r->elem) : -((-off + r->elem - 1) / r->elem);
      name = r->name;
      space = r->kind == kBuffer ? "global" : "shared";
      decl_line = r->line;
      long long last = static_cast<long long>(r->bytes / r->elem) - 1;
      if (r->kind == kDynShared && r->bytes == 0) {
        code = "RUNTIME_FAULT.no_dynamic_shared";
        snprintf(what, sizeof what, "illegal address: %s of extern __shared__ '%s' but the launch gave 0 bytes of dynamic shared memory",
                 access, name);
        snprintf(params, sizeof params, "{\"access\": %s, \"array\": \"%s\"}", access_json, name);
      } else {
        code = r->kind == kBuffer ? "RUNTIME_FAULT.global_out_of_bounds" : "RUNTIME_FAULT.shared_out_of_bounds";
        snprintf(what, sizeof what, "out-of-bounds %s of %s '%s' at index %lld (valid indices are 0 to %lld)",
                 access, r->kind == kBuffer ? "global buffer" : "shared array", name, index, last);
        snprintf(params, sizeof params, "{\"access\": %s, \"array\": \"%s\", \"index\": %lld, \"last\": %lld}",
                 access_json, name, index, last);
      }
    } else if (reinterpret_cast<std::uintptr_t>(addr) < 65536) {
      kind = "out_of_bounds";
      code = "RUNTIME_FAULT.null_pointer";
      snprintf(what, sizeof what, "illegal address: %s through a null pointer (address %p)", access, (const void*)addr);
      snprintf(params, sizeof params, "{\"access\": %s, \"address\": \"%p\"}", access_json, (const void*)addr);
    } else {
      kind = "out_of_bounds";
      code = "RUNTIME_FAULT.wild_address";
      snprintf(what, sizeof what, "illegal address: %s at %p, outside every buffer and shared array", access, (const void*)addr);
      snprintf(params, sizeof params, "{\"access\": %s, \"address\": \"%p\"}", access_json, (const void*)addr);
    }
  } else if (sig == SIGFPE) {
    code = "RUNTIME_FAULT.division_by_zero";
    snprintf(what, sizeof what, "integer division by zero (on a GPU the result would be undefined, not a trap)");
  } else if (sig == SIGABRT) {
    code = "RUNTIME_FAULT.assert";
    snprintf(what, sizeof what, "device-side assert triggered (cudaErrorAssert)");
  } else {
    snprintf(what, sizeof what, "trap or illegal instruction (cudaErrorIllegalInstruction)");
  }
  snprintf(g_fault_json, sizeof g_fault_json,
           "{\"status\": \"fault\", \"message\": \"%s\", \"fault\": {\"pc\": \"0x%llx\", \"signal\": \"%s\"}, "
           "\"diagnostics\": [{\"kind\": \"%s\", \"message\": \"%s\", \"code\": \"%s\", \"params\": %s, \"line\": null, "
           "\"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], \"detail\": {\"access\": \"%s\", \"array\": \"%s\", "
           "\"space\": \"%s\", \"index\": %lld, \"declared_line\": %d, \"pc\": \"0x%llx\"}}]}\n",
           what, pc, signal_name(sig), kind, what, code, params, c.block_idx.x, c.block_idx.y, c.block_idx.z, c.thread_idx.x,
           c.thread_idx.y, c.thread_idx.z, access, name, space, index, decl_line, pc);
  write_result_and_exit_from_signal(g_fault_json);
}
}  // namespace

void install_altstack() {
  constexpr std::size_t kAlt = 256 * 1024;
  stack_t ss;
  ss.ss_sp = mmap(nullptr, kAlt, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ss.ss_size = kAlt;
  ss.ss_flags = 0;
  sigaltstack(&ss, nullptr);
}

void install_fault_handlers() {
  install_altstack();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP}) sigaction(s, &sa, nullptr);
}

}  // namespace rt
}  // namespace wd
