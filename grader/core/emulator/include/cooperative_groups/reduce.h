// WarpDrill emulator: cooperative_groups/reduce.h (cg::reduce, cg::plus, ...: in warpdrill/detail/cooperative_groups.hpp).
#pragma once
#include "warpdrill/prelude.hpp"
