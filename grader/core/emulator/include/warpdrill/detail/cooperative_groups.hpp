// A small subset of cooperative groups: the thread block and its sync.
#pragma once

namespace cooperative_groups {
struct thread_block {
  void sync() const { ::wd::detail::block_barrier(-1, 0, 0, 0); }
  unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
  unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
};
inline thread_block this_thread_block() { return thread_block(); }
inline void sync(const thread_block& b) { b.sync(); }
}  // namespace cooperative_groups
