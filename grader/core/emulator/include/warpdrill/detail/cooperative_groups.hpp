// A small subset of cooperative groups: the thread block and its sync.
#pragma once

namespace cooperative_groups {
struct thread_block {
  // __builtin_LINE() as a default argument is the caller's line: diagnostics name the student's line.
  // Site = line (offset past the __COUNTER__ range of WD_SITE): two calls on one line are one
  // site (g++ 12 has no __builtin_COLUMN).
  void sync(int line = __builtin_LINE()) const { ::wd::detail::block_barrier(line * 4096 + 4095, line, 0, 0); }
  unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
  unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
};
inline thread_block this_thread_block() { return thread_block(); }
inline void sync(const thread_block& b, int line = __builtin_LINE()) { b.sync(line); }
}  // namespace cooperative_groups
