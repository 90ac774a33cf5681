// Device printf: captured into a capped per-run buffer (written to the work dir after the run),
// never to the process's stdout.
#pragma once

namespace wd {
namespace detail {
int device_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
}
}  // namespace wd
#define printf ::wd::detail::device_printf
