// WarpDrill emulator: curand_kernel.h (XORWOW device API: warpdrill/detail/curand.hpp, in the prelude).
#pragma once
#include "warpdrill/prelude.hpp"
