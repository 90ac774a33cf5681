// WarpDrill emulator: cooperative groups (the common subset: warpdrill/detail/cooperative_groups.hpp,
// which the prelude already includes, before the student's code and its macros).
#pragma once
#include "warpdrill/prelude.hpp"
