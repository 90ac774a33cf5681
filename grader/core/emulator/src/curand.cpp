// cuRAND XORWOW skip-ahead: powers of the generator's step as 160x160 matrices over GF(2).
//
// The step (curand() in detail/curand.hpp) is linear in the 160 bits of v[5], so jumping n steps
// is a matrix power. Column j of a matrix is the image of state bit j (bit j % 32 of v[j / 32]);
// A^(2^k) is kept for k = 0..130, computed once per process by repeated squaring: k < 64 serves
// skipahead(offset), k = 67 + i serves skipahead_sequence (subsequences are 2^67 steps apart).
#include <mutex>
#include <vector>

namespace wd {
namespace detail {
namespace {

constexpr int kBits = 160;
constexpr int kPowers = 131;

struct Matrix {
  unsigned int col[kBits][5];
};

void apply(const Matrix& m, const unsigned int* v, unsigned int* out) {
  unsigned int acc[5] = {0, 0, 0, 0, 0};
  for (int j = 0; j < kBits; ++j)
    if (v[j / 32] >> (j % 32) & 1u)
      for (int w = 0; w < 5; ++w) acc[w] ^= m.col[j][w];
  for (int w = 0; w < 5; ++w) out[w] = acc[w];
}

std::vector<Matrix>& powers() {
  static std::vector<Matrix> table;
  static std::once_flag once;
  std::call_once(once, [] {
    table.resize(kPowers);
    for (int j = 0; j < kBits; ++j) {  // the step applied to each basis state (d plays no part)
      unsigned int v[5] = {0, 0, 0, 0, 0};
      v[j / 32] = 1u << (j % 32);
      unsigned int t = v[0] ^ (v[0] >> 2);
      unsigned int* c = table[0].col[j];
      c[0] = v[1];
      c[1] = v[2];
      c[2] = v[3];
      c[3] = v[4];
      c[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
    }
    for (int k = 1; k < kPowers; ++k)
      for (int j = 0; j < kBits; ++j) apply(table[k - 1], table[k - 1].col[j], table[k].col[j]);
  });
  return table;
}

}  // namespace

void xorwow_jump(unsigned int* v, unsigned long long n, int base) {
  const std::vector<Matrix>& table = powers();
  for (int k = 0; n; ++k, n >>= 1)
    if ((n & 1) && base + k < kPowers) apply(table[base + k], v, v);
}

}  // namespace detail
}  // namespace wd
