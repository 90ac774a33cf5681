"""What NVRTC is given besides a student's translation unit, so that it takes the kernel files nvcc takes.

nvcc includes <cuda_runtime.h> into every .cu file, and through it the host's <math.h> and <limits.h>:
a kernel that includes nothing may still use INFINITY, NAN, M_PI or INT_MAX. NVRTC has no host headers,
so those sources failed there and were compiled again by nvcc (0.4-1.9 s instead of 20-90 ms): 11 of
the bank's 160 sources (INFINITY in every softmax and cross-entropy solution, <climits> for INT_MAX).
NVRTC now gets:

- a prelude included before the student's file (--pre-include) with the macros those host headers
  define and nvcc accepts without an include (checked against nvcc 13.0 one by one: FLT_MAX, for
  one, nvcc refuses without <cfloat>, so it is only in the <cfloat> given below), each under #ifndef;
- <cfloat>/<float.h> with the <float.h> limits, and the host headers a kernel file includes out of
  habit given empty (printf and the math functions are built into NVRTC).

Not given: the CUDA toolkit's include folders (<cooperative_groups.h>, <cuda/std/...>). NVRTC compiles
those sources with them, but in 2.4-2.6 s on a 2-core machine, as long as nvcc (2.4 s): NVRTC's automatic
precompiled header would parse the toolkit's headers once per child, but it is disabled by the `#line`
directive that starts every translation unit (nvcc.translation_unit). They stay nvcc's (3 of the bank's 160).

The values are IEEE 754 binary32/binary64 and LP64 (x86-64 and aarch64 Linux, as glibc's headers give
them). A source that still fails with NVRTC is compiled by nvcc as before (nvrtc.py): nothing here can
make NVRTC refuse what it took before, and nothing defined here is missing under nvcc.

Plain Python, standard library only (the compiler child's box holds only this folder of the project).
"""
from __future__ import annotations

import hashlib
import re

PRELUDE_NAME = "warpdrill_nvrtc_prelude.h"

_MATH_H = {  # <math.h> (glibc, GNU mode as nvcc's host compiler runs)
    "INFINITY": "__builtin_bit_cast(float, 0x7f800000U)",
    "NAN": "__builtin_bit_cast(float, 0x7fc00000U)",
    "HUGE_VALF": "__builtin_bit_cast(float, 0x7f800000U)",
    "HUGE_VAL": "__builtin_bit_cast(double, 0x7ff0000000000000ULL)",
    "M_E": "2.7182818284590452354", "M_LOG2E": "1.4426950408889634074", "M_LOG10E": "0.43429448190325182765",
    "M_LN2": "0.69314718055994530942", "M_LN10": "2.30258509299404568402", "M_PI": "3.14159265358979323846",
    "M_PI_2": "1.57079632679489661923", "M_PI_4": "0.78539816339744830962", "M_1_PI": "0.31830988618379067154",
    "M_2_PI": "0.63661977236758134308", "M_2_SQRTPI": "1.12837916709551257390", "M_SQRT2": "1.41421356237309504880",
    "M_SQRT1_2": "0.70710678118654752440",
}
_LIMITS_H = {  # <limits.h>, LP64
    "CHAR_BIT": "8", "SCHAR_MIN": "(-128)", "SCHAR_MAX": "127", "UCHAR_MAX": "255", "CHAR_MIN": "(-128)",
    "CHAR_MAX": "127", "SHRT_MIN": "(-32768)", "SHRT_MAX": "32767", "USHRT_MAX": "65535",
    "INT_MIN": "(-2147483647 - 1)", "INT_MAX": "2147483647", "UINT_MAX": "4294967295U",
    "LONG_MIN": "(-9223372036854775807L - 1)", "LONG_MAX": "9223372036854775807L", "ULONG_MAX": "18446744073709551615UL",
    "LLONG_MIN": "(-9223372036854775807LL - 1)", "LLONG_MAX": "9223372036854775807LL",
    "ULLONG_MAX": "18446744073709551615ULL",
}
_FLOAT_H = {  # <float.h>: only where the student includes it (nvcc refuses FLT_MAX without)
    "FLT_RADIX": "2", "FLT_MANT_DIG": "24", "DBL_MANT_DIG": "53", "FLT_DIG": "6", "DBL_DIG": "15",
    "FLT_EPSILON": "1.19209289550781250000e-7F", "DBL_EPSILON": "2.22044604925031308085e-16",
    "FLT_MIN": "1.17549435082228750797e-38F", "DBL_MIN": "2.22507385850720138309e-308",
    "FLT_MAX": "3.40282346638528859812e+38F", "DBL_MAX": "1.79769313486231570815e+308",
    "FLT_TRUE_MIN": "1.40129846432481707092e-45F", "DBL_TRUE_MIN": "4.94065645841246544177e-324",
    "FLT_MIN_EXP": "(-125)", "FLT_MAX_EXP": "128", "DBL_MIN_EXP": "(-1021)", "DBL_MAX_EXP": "1024",
    "FLT_MIN_10_EXP": "(-37)", "FLT_MAX_10_EXP": "38", "DBL_MIN_10_EXP": "(-307)", "DBL_MAX_10_EXP": "308",
}
# Host headers given empty: what a kernel uses from them is built in, or is in the prelude.
EMPTY_HEADERS = ("cstdio", "stdio.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda.h",
                 "device_launch_parameters.h", "cuda_device_runtime_api.h", "cmath", "math.h", "climits",
                 "limits.h", "cstdlib", "stdlib.h", "cassert", "assert.h")


def _defines(values: dict[str, str]) -> str:
    return "".join(f"#ifndef {name}\n#define {name} {value}\n#endif\n" for name, value in values.items())


PRELUDE = "#pragma once\n" + _defines(_MATH_H) + _defines(_LIMITS_H)
# The prelude costs ~5 ms a compile (50.8 -> 56.0 ms at the median, bench/nvrtc_fallbacks.py's sources): it is
# given only to a translation unit that names one of its macros.
_PRELUDE_NAMES = re.compile(r"\b(?:" + "|".join(sorted({*_MATH_H, *_LIMITS_H})) + r")\b")
FLOAT_HEADER = "#pragma once\n" + _defines(_FLOAT_H)


def headers() -> dict[str, str]:
    """{include name: its text} given to nvrtcCreateProgram: the prelude, <cfloat>/<float.h>, the empty ones."""
    given = {name: "" for name in EMPTY_HEADERS}
    given.update({PRELUDE_NAME: PRELUDE, "cfloat": FLOAT_HEADER, "float.h": FLOAT_HEADER})
    return given


def extra_options(tu: str) -> list[str]:
    """NVRTC options besides the architecture's: the prelude, where the translation unit names one of its macros."""
    return [f"--pre-include={PRELUDE_NAME}"] if _PRELUDE_NAMES.search(tu) else []


def digest() -> str:
    """A digest of what NVRTC is given (part of the compile cache's key)."""
    text = "\0".join(f"{k}={v}" for k, v in sorted(headers().items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
