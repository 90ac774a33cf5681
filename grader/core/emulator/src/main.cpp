// The emulator's entry point: read the job file, map the device buffers, launch the grid,
// write the result file. Usage: <binary> <workdir>/job.txt
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "runtime.hpp"

namespace wd {
namespace rt {
Job g_job;

namespace {
std::vector<std::vector<unsigned char>> g_scalars;

// When the process began, taken before any static initialiser of the student's code runs
// (prioritised constructors run before unprioritised ones, and the student's code cannot ask
// for a priority: attributes are refused), so a slow initialiser counts toward the run's time.
double g_birth_s = 0;
__attribute__((constructor(101))) void note_birth() { g_birth_s = now_s(); }

[[noreturn]] void bad_job(const std::string& why) {
  fprintf(stderr, "warpdrill: bad job file: %s\n", why.c_str());
  _exit(kExitBadJob);
}

void load_file(const std::string& path, char* dst, std::size_t bytes) {
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) bad_job("cannot open " + path);
  std::size_t done = 0;
  while (done < bytes) {
    ssize_t r = read(fd, dst + done, bytes - done);
    if (r <= 0) bad_job("short file " + path);
    done += static_cast<std::size_t>(r);
  }
  close(fd);
}

int hexval(char c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

void read_job(const char* path) {
  std::ifstream in(path);
  if (!in) bad_job(std::string("cannot open ") + path);
  std::string dir = path;
  auto slash = dir.rfind('/');
  g_job.out_dir = slash == std::string::npos ? "." : dir.substr(0, slash);
  g_job.buffers.reserve(64);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string key;
    ss >> key;
    if (key.empty() || key[0] == '#') continue;
    if (key == "mode") { std::string m; ss >> m; g_job.fibers = m == "fibers"; g_job.coro = m == "coro"; }
    else if (key == "workers") ss >> g_job.workers;
    else if (key == "align") {
      std::string a;
      ss >> a;
      g_job.start_aligned = a == "start";
      g_job.align16 = a == "end16";
    }
    else if (key == "grid") ss >> g_job.grid.x >> g_job.grid.y >> g_job.grid.z;
    else if (key == "block") ss >> g_job.block.x >> g_job.block.y >> g_job.block.z;
    else if (key == "shared") ss >> g_job.shared_bytes;
    else if (key == "time_limit") ss >> g_job.time_limit_s;
    else if (key == "progress_window") ss >> g_job.progress_window_s;
    else if (key == "cooperative") { int c = 0; ss >> c; g_job.cooperative = c != 0; }
    else if (key == "coresident") { int c = 0; ss >> c; g_job.coresident = c != 0; }
    else if (key == "buffer") {
      // buffer <name> <role> <elem bytes> <count> <file>
      Buffer b;
      ss >> b.name >> b.role >> b.elem >> b.count >> b.file;
      if (!ss || b.elem == 0) bad_job("buffer line: " + line);
      b.bytes = b.elem * b.count;
      char *lo, *hi;
      b.data = guarded_alloc(b.bytes, g_job.start_aligned, g_job.align16 ? 16 : b.elem < 16 ? b.elem : 16, &lo, &hi);
      if (!b.data) bad_job("cannot map buffer " + b.name);
      if (g_job.align16 && b.bytes) {
        b.slack_end = hi - 4096;  // the page-aligned end of the buffer's readable pages
        b.tag = static_cast<unsigned char>(0x11 + 0x1D * g_job.buffers.size());
        for (char* p = b.data + b.bytes; p < b.slack_end; ++p) *p = static_cast<char>(b.slack_byte(p));
      }
      if (b.bytes) load_file(g_job.out_dir + "/" + b.file, b.data, b.bytes);
      g_job.buffers.push_back(b);
      Buffer& kept = g_job.buffers.back();
      register_region(Region{lo, hi, kept.data, kept.bytes, kept.elem, kBuffer, kept.name.c_str(), 0});
      g_job.args.push_back(kept.data);
    } else if (key == "writemap") {
      // writemap <buffer name> <side file>: record the stores into that buffer (writemap.cpp)
      std::string name, file;
      ss >> name >> file;
      bool found = false;
      for (auto& b : g_job.buffers) {
        if (b.name == name) found = writemap_attach(b, g_job.out_dir + "/" + file);
      }
      if (!found) bad_job("writemap line: " + line);
    } else if (key == "scalar") {
      // scalar <name> <hex bytes, little endian>
      std::string name, hex;
      ss >> name >> hex;
      std::vector<unsigned char> bytes(16, 0);
      for (std::size_t i = 0; i + 1 < hex.size() && i / 2 < bytes.size(); i += 2)
        bytes[i / 2] = static_cast<unsigned char>(hexval(hex[i]) * 16 + hexval(hex[i + 1]));
      g_scalars.push_back(bytes);
      g_job.args.push_back(nullptr);  // patched below once g_scalars stops moving
    } else {
      bad_job("unknown key " + key);
    }
  }
  std::size_t s = 0;
  for (auto& a : g_job.args) {
    if (a == nullptr) a = g_scalars[s++].data();
  }
  if (g_job.workers < 1) g_job.workers = 1;
}
}  // namespace
}  // namespace rt
}  // namespace wd

int main(int argc, char** argv) {
  using namespace wd::rt;
  if (argc < 2) {
    fprintf(stderr, "usage: %s JOBFILE\n", argv[0]);
    return kExitBadJob;
  }
  // Nonzero only from here on: the loop tick tells static initialisers (before the job is read) by it.
  g_start_s = g_birth_s > 0 ? g_birth_s : now_s();
  read_job(argv[1]);
  install_fault_handlers();
  wd_user_setup(g_job.args.data());
  unsigned long long blocks = 1ULL * g_job.grid.x * g_job.grid.y * g_job.grid.z;
  int workers = static_cast<int>(std::min<unsigned long long>(blocks, static_cast<unsigned long long>(g_job.workers)));
  g_job.workers = workers < 1 ? 1 : workers;
  double launch_start = now_s(), launch_cpu_start = process_cpu_s();
  if (g_job.workers == 1) {
    run_worker(0);
  } else {
    std::vector<std::thread> pool;
    for (int w = 0; w < g_job.workers; ++w) pool.emplace_back(run_worker, w);
    for (auto& t : pool) t.join();
  }
  g_launch_s = now_s() - launch_start;
  g_launch_cpu_s = process_cpu_s() - launch_cpu_start;
  finish("ok", "", {});
}
