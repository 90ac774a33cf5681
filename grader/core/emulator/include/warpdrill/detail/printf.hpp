// Device printf: captured into a capped per-run buffer (written to the work dir after the run),
// never to the process's stdout.
#pragma once

namespace wd {
namespace detail {
int device_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
}
// The name the printf macro expands to: a `wd_` name, which no macro of the student's can change.
constexpr int (&wd_printf)(const char*, ...) = detail::device_printf;
}  // namespace wd
#define printf ::wd::wd_printf
