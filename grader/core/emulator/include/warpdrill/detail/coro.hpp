// Barrier kernels as stackless coroutines (the plain runs' "coro" mode, src/coro.cpp). A kernel whose
// only synchronisation is __syncthreads() in its own body gets a second copy (coro.py): the same
// code as a C++ coroutine, each __syncthreads() a co_await. A block's threads are then coroutine
// frames in one contiguous arena, resumed in turn between barriers: no stack per thread and no
// stack switch, where the fiber scheduler pays both (docs/emulator.md). Anything irregular (threads
// at different barriers, some exited while others wait, a loop that may wait for another thread)
// reruns the test with fibers, which judge it as before.
#pragma once
#include <coroutine>
#include <cstddef>

namespace wd {
namespace detail {
void* coro_frame_alloc(std::size_t bytes);  // from the running block's arena (src/coro.cpp)
void coro_arrive(int site, int line);  // the running thread suspends at barrier `site`
}  // namespace detail

// What a kernel's coroutine copy returns: its frame, for the scheduler (std::coroutine_handle<>).
struct WdCoTask {
  struct promise_type {
    WdCoTask get_return_object() noexcept {
      return WdCoTask{std::coroutine_handle<promise_type>::from_promise(*this).address()};
    }
    std::suspend_never initial_suspend() noexcept { return {}; }  // runs to its first barrier at once
    std::suspend_always final_suspend() noexcept { return {}; }  // the scheduler destroys it
    void return_void() noexcept {}
    void unhandled_exception() { throw; }
    static void* operator new(std::size_t bytes) { return detail::coro_frame_alloc(bytes); }
    static void operator delete(void*) noexcept {}  // the arena is reset per block
  };
  void* frame;
};

// `co_await ::wd::wd_co_barrier(site, line)`: what __syncthreads() is inside a coroutine copy.
struct wd_co_barrier {
  int site, line;
  constexpr wd_co_barrier(int s, int l) : site(s), line(l) {}
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept { detail::coro_arrive(site, line); }
  void await_resume() const noexcept {}
};
}  // namespace wd
