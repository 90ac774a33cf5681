// The common subset of cooperative groups: this_thread_block(), tiled_partition<N>() (and the
// dynamic tiled_partition(g, n)), coalesced_threads(), this_grid() with grid.sync(), cg::reduce
// with cg::plus/less/greater/bit_*, and sync(g). Included by the prelude, before the student's
// code, so no macro of theirs can change it.
//
// Every operation a group performs is one of the runtime's block barriers or warp operations, so
// divergence, mask and deadlock checks apply to groups too. __builtin_LINE() as a default argument
// is the caller's line: diagnostics name the student's line. Sites are line-based (offset past the
// __COUNTER__ range of WD_SITE): two calls on one line are one site (g++ 12 has no __builtin_COLUMN).
#pragma once

namespace wd {
namespace detail {
// grid.sync(): a grid-wide barrier when the launch is cooperative (the job's `cooperative 1`);
// otherwise the run stops with CUDA's error for it, as the hardware traps.
void grid_sync(int line);
bool cooperative_launch();
inline unsigned cg_block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
inline unsigned cg_site(int line, int op) { return static_cast<unsigned>(line) * 4096u + 4000u + static_cast<unsigned>(op); }
// The rank-th set bit of mask (0-based), or 32 when it has fewer bits.
inline unsigned cg_nth_lane(unsigned mask, unsigned rank) {
  for (unsigned lane = 0; lane < 32; ++lane)
    if (mask >> lane & 1u) { if (rank == 0) return lane; --rank; }
  return 32;
}
}  // namespace detail
}  // namespace wd

namespace cooperative_groups {

class thread_group;

class thread_block {
 public:
  void sync(int line = __builtin_LINE()) const { ::wd::detail::block_barrier(line * 4096 + 4095, line, ::wd::wd_bar_plain, 0); }
  unsigned thread_rank() const { return ::wd::detail::cg_block_rank(); }
  unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  unsigned num_threads() const { return size(); }
  dim3 group_index() const { return blockIdx; }
  dim3 thread_index() const { return threadIdx; }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

class grid_group {
 public:
  void sync(int line = __builtin_LINE()) const { ::wd::detail::grid_sync(line); }
  bool is_valid() const { return ::wd::detail::cooperative_launch(); }
  unsigned long long num_blocks() const { return 1ULL * gridDim.x * gridDim.y * gridDim.z; }
  unsigned long long block_rank() const { return (1ULL * blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x; }
  unsigned long long size() const { return num_blocks() * (blockDim.x * blockDim.y * blockDim.z); }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    return block_rank() * (blockDim.x * blockDim.y * blockDim.z) + ::wd::detail::cg_block_rank(); }
  dim3 group_dim() const { return gridDim; }
  dim3 dim_blocks() const { return gridDim; }
  dim3 block_index() const { return blockIdx; }
};

// A group of lanes of one warp: a fixed-size tile or the lanes that arrived together
// (coalesced_threads()). `mask_` names them; shuffles address lanes by rank in the group.
class coalesced_group {
 public:
  explicit coalesced_group(unsigned mask) : mask_(mask) {}
  unsigned size() const { return static_cast<unsigned>(__builtin_popcount(mask_)); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const {
    return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << lane()) - 1u))); }
  unsigned meta_group_rank() const { return 0; }
  unsigned meta_group_size() const { return 1; }
  void sync(int line = __builtin_LINE()) const { op(line, ::wd::detail::kSyncWarp, 0ULL, 0); }
  template <class V> V shfl(V v, int rank, int line = __builtin_LINE()) const {
    unsigned src = ::wd::detail::cg_nth_lane(mask_, static_cast<unsigned>(rank) % (size() ? size() : 1));
    return ::wd::detail::shfl(::wd::detail::cg_site(line, 1), line, ::wd::detail::kShflIdx, mask_, v,
                              static_cast<int>(src), 32);
  }
  template <class V> V shfl_down(V v, unsigned delta, int line = __builtin_LINE()) const {
    unsigned r = thread_rank() + delta;
    unsigned src = r < size() ? ::wd::detail::cg_nth_lane(mask_, r) : lane();
    return ::wd::detail::shfl(::wd::detail::cg_site(line, 3), line, ::wd::detail::kShflIdx, mask_, v,
                              static_cast<int>(src), 32);
  }
  template <class V> V shfl_up(V v, unsigned delta, int line = __builtin_LINE()) const {
    unsigned r = thread_rank();
    unsigned src = r >= delta ? ::wd::detail::cg_nth_lane(mask_, r - delta) : lane();
    return ::wd::detail::shfl(::wd::detail::cg_site(line, 2), line, ::wd::detail::kShflIdx, mask_, v,
                              static_cast<int>(src), 32);
  }
  unsigned ballot(int predicate, int line = __builtin_LINE()) const {
    // CUDA's coalesced ballot packs the bits by rank in the group.
    unsigned lanes = static_cast<unsigned>(op(line, ::wd::detail::kBallot, predicate ? 1 : 0, 0));
    unsigned out = 0, rank = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (mask_ >> l & 1u) { if (lanes >> l & 1u) out |= 1u << rank; ++rank; }
    return out;
  }
  bool any(int predicate, int line = __builtin_LINE()) const { return op(line, ::wd::detail::kAny, predicate ? 1 : 0, 0) != 0; }
  bool all(int predicate, int line = __builtin_LINE()) const { return op(line, ::wd::detail::kAll, predicate ? 1 : 0, 0) != 0; }

 protected:
  static unsigned lane() { return ::wd::detail::cg_block_rank() % 32u; }
  unsigned long long op(int line, int kind, unsigned long long value, int arg) const {
    return ::wd::detail::warp_op(::wd::detail::cg_site(line, kind), line, kind, mask_, value, arg, 32);
  }
  unsigned mask_;
  friend class thread_group;
};

// A tile of Size (a power of two up to 32) consecutive threads of the block. As in CUDA,
// thread_block_tile<N, thread_block> (what tiled_partition<N>(block) returns) is a
// thread_block_tile<N> (the type students declare).
template <unsigned Size, class Parent = void>
class thread_block_tile;
template <unsigned Size>
class thread_block_tile<Size, void> {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                "tiled_partition<N>: N must be a power of two from 1 to 32");

 public:
  static constexpr unsigned size() { return Size; }
  static constexpr unsigned num_threads() { return Size; }
  unsigned thread_rank() const { return ::wd::detail::cg_block_rank() % Size; }
  unsigned meta_group_rank() const { return ::wd::detail::cg_block_rank() / Size; }
  unsigned meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size; }
  void sync(int line = __builtin_LINE()) const {
    ::wd::detail::warp_op(::wd::detail::cg_site(line, ::wd::detail::kSyncWarp), line, ::wd::detail::kSyncWarp, mask(), 0, 0, 32);
  }
  template <class V> V shfl(V v, int src, int line = __builtin_LINE()) const { return sh(line, ::wd::detail::kShflIdx, v, src); }
  template <class V> V shfl_down(V v, unsigned d, int line = __builtin_LINE()) const {
    return sh(line, ::wd::detail::kShflDown, v, static_cast<int>(d)); }
  template <class V> V shfl_up(V v, unsigned d, int line = __builtin_LINE()) const {
    return sh(line, ::wd::detail::kShflUp, v, static_cast<int>(d)); }
  template <class V> V shfl_xor(V v, unsigned m, int line = __builtin_LINE()) const {
    return sh(line, ::wd::detail::kShflXor, v, static_cast<int>(m)); }
  unsigned ballot(int predicate, int line = __builtin_LINE()) const {
    unsigned lanes = static_cast<unsigned>(::wd::detail::warp_op(::wd::detail::cg_site(line, ::wd::detail::kBallot), line,
                                                                 ::wd::detail::kBallot, mask(), predicate ? 1 : 0, 0, 32));
    return Size == 32 ? lanes : (lanes >> base()) & ((1u << Size) - 1u);
  }
  bool any(int predicate, int line = __builtin_LINE()) const { return ballot(predicate, line) != 0; }
  bool all(int predicate, int line = __builtin_LINE()) const {
    return ballot(predicate, line) == (Size == 32 ? 0xffffffffu : (1u << Size) - 1u); }
  operator coalesced_group() const { return coalesced_group(mask()); }

 private:
  friend class thread_group;
  static unsigned base() { return ::wd::detail::cg_block_rank() % 32u / Size * Size; }
  static unsigned mask() { return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << base(); }
  template <class V> V sh(int line, int kind, V v, int arg) const {
    return ::wd::detail::shfl(::wd::detail::cg_site(line, kind), line, kind, mask(), v, arg, static_cast<int>(Size));
  }
};
template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {};

// What `thread_group g = ...` holds: any group, with the operations every group has.
class thread_group {
 public:
  thread_group(const thread_block&) : kind_(kBlock), mask_(0), size_(0) {}
  thread_group(const grid_group&) : kind_(kGrid), mask_(0), size_(0) {}
  thread_group(const coalesced_group& g) : kind_(kWarp), mask_(g.mask_), size_(g.size()) {}
  template <unsigned N>
  thread_group(const thread_block_tile<N, void>& t) : kind_(kWarp), mask_(t.mask()), size_(N) {}
  thread_group(unsigned tile_size, bool) : kind_(kWarp), mask_(0), size_(tile_size) {
    unsigned lane = ::wd::detail::cg_block_rank() % 32u;
    unsigned base = lane / tile_size * tile_size;
    mask_ = tile_size >= 32 ? 0xffffffffu : ((1u << tile_size) - 1u) << base;
  }
  unsigned long long size() const {
    return kind_ == kBlock ? thread_block().size() : kind_ == kGrid ? grid_group().size() : size_; }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    if (kind_ == kBlock) return thread_block().thread_rank();
    if (kind_ == kGrid) return grid_group().thread_rank();
    unsigned lane = ::wd::detail::cg_block_rank() % 32u;
    return static_cast<unsigned>(__builtin_popcount(mask_ & ((1u << lane) - 1u)));
  }
  void sync(int line = __builtin_LINE()) const {
    if (kind_ == kBlock) thread_block().sync(line);
    else if (kind_ == kGrid) grid_group().sync(line);
    else coalesced_group(mask_).sync(line);
  }

 private:
  enum Kind { kBlock, kGrid, kWarp };
  Kind kind_;
  unsigned mask_;
  unsigned size_;
};

inline thread_block this_thread_block() { return thread_block(); }
inline grid_group this_grid() { return grid_group(); }
// The lanes of the caller's warp that reach this call together: each waits until every other
// lane of its warp has arrived here too, exited, or is waiting at another barrier or warp
// operation (the emulator's stand-in for "converged").
inline coalesced_group coalesced_threads(int line = __builtin_LINE()) {
  return coalesced_group(static_cast<unsigned>(
      ::wd::detail::warp_op(::wd::detail::cg_site(line, ::wd::detail::kCoalesce), line, ::wd::detail::kCoalesce, 0, 0, 0, 32)));
}
template <unsigned Size, class P>
inline thread_block_tile<Size, P> tiled_partition(const P&) { return thread_block_tile<Size, P>(); }
template <unsigned Size>
inline thread_block_tile<Size, thread_block> tiled_partition(const thread_block&) { return thread_block_tile<Size, thread_block>(); }
inline thread_group tiled_partition(const thread_group&, unsigned tile_size) { return thread_group(tile_size, true); }
inline thread_group tiled_partition(const thread_block&, unsigned tile_size) { return thread_group(tile_size, true); }

inline void sync(const thread_block& g, int line = __builtin_LINE()) { g.sync(line); }
inline void sync(const grid_group& g, int line = __builtin_LINE()) { g.sync(line); }
inline void sync(const coalesced_group& g, int line = __builtin_LINE()) { g.sync(line); }
inline void sync(const thread_group& g, int line = __builtin_LINE()) { g.sync(line); }
template <unsigned N>
inline void sync(const thread_block_tile<N, void>& g, int line = __builtin_LINE()) { g.sync(line); }

// cooperative_groups/reduce.h
template <class V> struct plus { V operator()(V a, V b) const { return a + b; } };
template <class V> struct less { V operator()(V a, V b) const { return b < a ? b : a; } };
template <class V> struct greater { V operator()(V a, V b) const { return a < b ? b : a; } };
template <class V> struct bit_and { V operator()(V a, V b) const { return a & b; } };
template <class V> struct bit_or { V operator()(V a, V b) const { return a | b; } };
template <class V> struct bit_xor { V operator()(V a, V b) const { return a ^ b; } };

// Every lane of the tile gets op over the tile's values (a butterfly of shfl_xor, as CUDA does).
template <unsigned N, class V, class Op>
inline V reduce(const thread_block_tile<N, void>& g, V value, Op op, int line = __builtin_LINE()) {
  for (unsigned m = N / 2; m > 0; m /= 2) value = op(value, g.shfl_xor(value, m, line));
  return value;
}
// Over a coalesced group: every member gets op over the members' values, in rank order.
template <class V, class Op>
inline V reduce(const coalesced_group& g, V value, Op op, int line = __builtin_LINE()) {
  V total = g.shfl(value, 0, line);
  for (unsigned r = 1; r < g.size(); ++r) total = op(total, g.shfl(value, static_cast<int>(r), line));
  return total;
}

}  // namespace cooperative_groups
