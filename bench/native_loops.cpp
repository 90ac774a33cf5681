// The baseline of bench/emulator_bench.py: the barrier-free kernels' work as plain C++ loops, on the
// same cores (the bench compiles this with the emulator's flags: -O2 -fwrapv -fno-strict-aliasing).
// It reads the same job directory as the emulator (a0.bin, a1.bin, ... raw inputs), splits the rows
// over `workers` threads as the emulator splits blocks, writes the output as <file>.out, and prints
// {"launch_s": wall seconds of the loops, "launch_cpu_s": process CPU seconds of the loops}.
//
// Usage: native_loops vector_add|matmul_naive <job dir> <workers> <n>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

static std::vector<float> load(const std::string& path, std::size_t count) {
  std::vector<float> v(count);
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(v.data(), sizeof(float), count, f) != count) std::exit(2);
  std::fclose(f);
  return v;
}

static void store(const std::string& path, const std::vector<float>& v) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(v.data(), sizeof(float), v.size(), f) != v.size()) std::exit(2);
  std::fclose(f);
}

static double cpu_s() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

template <class F>
static void parallel_rows(long rows, int workers, F body) {
  std::vector<std::thread> pool;
  for (int w = 0; w < workers; ++w)
    pool.emplace_back([=] {
      for (long r = rows * w / workers; r < rows * (w + 1) / workers; ++r) body(r);
    });
  for (auto& t : pool) t.join();
}

int main(int argc, char** argv) {
  if (argc != 5) return 2;
  std::string kind = argv[1], dir = std::string(argv[2]) + "/";
  int workers = std::atoi(argv[3]);
  long n = std::atol(argv[4]);
  double t0 = 0, c0 = 0, t1 = 0, c1 = 0;
  auto now = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  if (kind == "vector_add") {  // c[i] = a[i] + b[i], in rows of 256 (the emulator's blocks)
    std::vector<float> a = load(dir + "a0.bin", n), b = load(dir + "a1.bin", n), c(n);
    t0 = now(), c0 = cpu_s();
    parallel_rows(n / 256, workers, [&](long r) {
      for (long i = r * 256; i < r * 256 + 256; ++i) c[i] = a[i] + b[i];
    });
    t1 = now(), c1 = cpu_s();
    store(dir + "a2.bin.out", c);
  } else if (kind == "matmul_naive") {  // C[i][j] = sum_k A[i][k] * B[k][j], k in order
    std::vector<float> A = load(dir + "a0.bin", n * n), B = load(dir + "a1.bin", n * n), C(n * n);
    t0 = now(), c0 = cpu_s();
    parallel_rows(n, workers, [&](long i) {
      for (long j = 0; j < n; ++j) {
        float acc = 0.0f;
        for (long k = 0; k < n; ++k) acc += A[i * n + k] * B[k * n + j];
        C[i * n + j] = acc;
      }
    });
    t1 = now(), c1 = cpu_s();
    store(dir + "a2.bin.out", C);
  } else {
    return 2;
  }
  std::printf("{\"launch_s\": %.6f, \"launch_cpu_s\": %.6f}\n", t1 - t0, c1 - c0);
  return 0;
}
