// WarpDrill emulator: cuda_fp16.h. __half, __half2 and their functions are in
// warpdrill/detail/half.hpp (in the prelude); the short names come with this header, as in CUDA.
#pragma once
#include "warpdrill/prelude.hpp"
typedef __half half;
typedef __half2 half2;
