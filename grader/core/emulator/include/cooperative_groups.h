// WarpDrill emulator: a small subset of cooperative groups (this_thread_block, sync, thread_rank).
#pragma once
#include "warpdrill/prelude.hpp"
#include "warpdrill/detail/cooperative_groups.hpp"
