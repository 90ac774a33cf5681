// ThreadSanitizer hooks for race checking (check mode). Compiled to nothing in the fast variant.
//
// Each CUDA thread is a TSan fiber; switches never synchronise (flag 1), so TSan sees the threads
// of a block as concurrent. The runtime adds exactly the happens-before edges CUDA guarantees:
// barrier and warp-op generations (release on arrival, acquire on departure), plus block
// boundaries (blocks run one after another here and reuse shared arenas and stacks).
#pragma once
#ifdef WD_TSAN
#include <sanitizer/tsan_interface.h>
// Exported by libtsan but not declared by g++ 12's header: while a thread ignores accesses, TSan
// resets the shadow of memory it maps instead of counting the mapping as a write.
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
namespace wd {
namespace rt {
void tsan_note_arena(const char* kind, const char* name, const void* lo, std::size_t bytes, std::size_t elem);
}
}  // namespace wd
#define WD_TSAN_ONLY(...) __VA_ARGS__
#else
#define WD_TSAN_ONLY(...)
#endif
