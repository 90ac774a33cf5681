// WarpDrill emulator: cooperative_groups/reduce.h (cg::reduce, cg::plus, ...: in warpdrill/detail/cooperative_groups.hpp).
#pragma once
#include "../warpdrill/prelude.hpp"  // relative: a quoted "warpdrill/..." from this folder would reach the precompiled header's folder first
