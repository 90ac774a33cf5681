// WarpDrill emulator: CUDA's public header name, forwarding to the emulator's runtime.
#pragma once
#include "warpdrill/prelude.hpp"
