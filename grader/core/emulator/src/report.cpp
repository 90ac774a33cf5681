// Diagnostics, device printf and the result file: the private channel to the Python backend.
#include <fcntl.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "runtime.hpp"

namespace wd {
namespace rt {

namespace {
std::mutex g_diag_mutex;
std::vector<Diag> g_diags;
constexpr std::size_t kMaxDiags = 50;
constexpr std::size_t kPrintfCap = 64 * 1024;
std::mutex g_printf_mutex;
std::string g_printf;
bool g_printf_truncated = false;
std::atomic<int> g_finishing{0};
}  // namespace

double g_start_s = 0;
double g_launch_s = -1, g_launch_cpu_s = -1;

double process_cpu_s() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double limit_clock_s() { return process_cpu_s(); }

double thread_cpu_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') { out += '\\'; out += c; }
    else if (c == '\n') out += "\\n";
    else if (c < 0x20 || c >= 0x7f) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); out += b; }
    else out += c;
  }
  return out + "\"";
}

std::string message_json(const std::string& code, const std::string& params) {
  return "{\"code\": " + json_str(code) + ", \"params\": " + (params.empty() ? std::string("{}") : params) + "}";
}

std::string ids_json(uint3 v) {
  char b[64];
  snprintf(b, sizeof b, "[%u, %u, %u]", v.x, v.y, v.z);
  return b;
}

void add_diag(Diag d, bool refine) {
  std::lock_guard<std::mutex> lock(g_diag_mutex);
  for (auto& old : g_diags) {
    if (old.key == d.key) {
      // Keep the report from the lowest block so parallel runs give the same diagnostics.
      if (d.order < old.order || (refine && d.order == old.order)) old = std::move(d);
      return;
    }
  }
  if (g_diags.size() < kMaxDiags) g_diags.push_back(std::move(d));
}

void add_diag_over(Diag d, const std::string& weaker_code) {
  {
    std::lock_guard<std::mutex> lock(g_diag_mutex);
    for (auto& old : g_diags) {
      if (old.key == d.key && old.order == d.order && old.code == weaker_code) {
        old = std::move(d);
        return;
      }
    }
  }
  add_diag(std::move(d));
}

static std::string diag_json(const Diag& d) {
  std::string s = "{\"kind\": " + json_str(d.kind) + ", \"message\": " + json_str(d.message);
  if (!d.code.empty())
    s += ", \"code\": " + json_str(d.code) + ", \"params\": " + (d.params_json.empty() ? "{}" : d.params_json);
  s += ", \"line\": " + (d.line > 0 ? std::to_string(d.line) : std::string("null"));
  if (d.has_ids) s += ", \"block\": " + ids_json(d.block) + ", \"thread\": " + ids_json(d.thread);
  s += ", \"detail\": " + (d.detail_json.empty() ? std::string("{}") : d.detail_json) + "}";
  return s;
}

static void write_file(const std::string& path, const char* data, std::size_t n) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) _exit(kExitBadJob);
  while (n > 0) {
    ssize_t w = write(fd, data, n);
    if (w <= 0) break;
    data += w;
    n -= static_cast<std::size_t>(w);
  }
  close(fd);
}

void finish(const char* status, const std::string& message, std::vector<Diag> fatal) {
  // Only the first worker to finish writes the result; the others wait to be killed by _exit.
  if (g_finishing.fetch_add(1) != 0) {
    for (;;) pause();
  }
  std::string printf_copy;
  {
    std::lock_guard<std::mutex> lock(g_printf_mutex);
    printf_copy = g_printf;
    if (g_printf_truncated) printf_copy += "\n[output truncated at 64 KiB]\n";
  }
  write_file(g_job.out_dir + "/printf.log", printf_copy.data(), printf_copy.size());
  bool ok = std::string(status) == "ok";
  std::string slack_message;
  if (ok) {
    // Buffers 16-byte aligned (align end16) end up to 15 bytes before their guard page: a write
    // into those bytes did not fault, so look for it now.
    for (auto& b : g_job.buffers) {
      if (!b.slack_end) continue;
      for (char* p = b.data + b.bytes; p < b.slack_end; ++p) {
        if (static_cast<unsigned char>(*p) == b.slack_byte(p)) continue;
        long long index = static_cast<long long>(b.count) + (p - (b.data + b.bytes)) / static_cast<long long>(b.elem);
        char what[512];
        snprintf(what, sizeof what, "out-of-bounds write of global buffer '%s' at index %lld (valid indices are 0 to %lld)",
                 b.name.c_str(), index, static_cast<long long>(b.count) - 1);
        Diag d;
        d.kind = "out_of_bounds";
        d.message = what;
        d.code = "RUNTIME_FAULT.global_out_of_bounds";
        d.params_json = JsonObject()
                            .raw("access", message_json("WORDS.write"))
                            .add("array", b.name)
                            .add("index", index)
                            .add("last", static_cast<long long>(b.count) - 1)
                            .str();
        d.detail_json = "{\"access\": \"write\", \"array\": " + json_str(b.name) +
                        ", \"space\": \"global\", \"index\": " + std::to_string(index) + ", \"declared_line\": 0}";
        fatal.push_back(d);
        slack_message = what;
        break;
      }
      if (!slack_message.empty()) break;
    }
    if (!slack_message.empty()) {
      status = "fault";
      ok = false;
    }
  }
  const std::string& final_message = slack_message.empty() ? message : slack_message;
  if (ok) {
    for (auto& b : g_job.buffers) {
      if (b.role == "out" || b.role == "inout") write_file(g_job.out_dir + "/" + b.file + ".out", b.data, b.bytes);
    }
  }
  std::string s = "{\"status\": " + json_str(status) + ", \"message\": " + json_str(final_message);
  char t[64];
  snprintf(t, sizeof t, ", \"time_s\": %.6f", now_s() - g_start_s);
  s += t;
  if (g_launch_s >= 0) {  // read by bench/emulator_bench.py only (result_file.read keeps neither)
    snprintf(t, sizeof t, ", \"launch_s\": %.6f, \"launch_cpu_s\": %.6f", g_launch_s, g_launch_cpu_s);
    s += t;
  }
  s += ", \"diagnostics\": [";
  bool first = true;
  std::lock_guard<std::mutex> lock(g_diag_mutex);
  for (auto& d : fatal) { s += (first ? "" : ", ") + diag_json(d); first = false; }
  for (auto& d : g_diags) { s += (first ? "" : ", ") + diag_json(d); first = false; }
  s += "]}\n";
  write_file(g_job.out_dir + "/result.json", s.data(), s.size());
  _exit(kExitDone);
}

void write_result_and_exit_from_signal(const char* json) {
  // Called from the fault handler: the kernel's state is unknown, so write the prepared text only.
  if (g_finishing.fetch_add(1) != 0) {
    for (;;) pause();
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/result.json", g_job.out_dir.c_str());
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    std::size_t n = strlen(json);
    ssize_t w = write(fd, json, n);
    (void)w;
    close(fd);
  }
  _exit(kExitDone);
}

}  // namespace rt

namespace detail {
int device_printf(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return n;
  std::size_t len = n < static_cast<int>(sizeof buf) ? static_cast<std::size_t>(n) : sizeof buf - 1;
  std::lock_guard<std::mutex> lock(rt::g_printf_mutex);
  if (rt::g_printf.size() + len > rt::kPrintfCap) {
    rt::g_printf_truncated = true;
    len = rt::kPrintfCap - rt::g_printf.size();
  }
  rt::g_printf.append(buf, len);
  return n;
}
}  // namespace detail
}  // namespace wd
