// The light header every student translation unit sees (force-included before the source).
// Declarations only: the heavy runtime (Boost.Context, threads, signals) lives in the runtime
// library, so compiling a submission stays fast.
#pragma once
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cfloat>
#include <climits>
#include <cassert>
#include <stdio.h>
#include <stdint.h>
#include <math.h>
#include <float.h>
#include <limits.h>
#include <assert.h>
#include "detail/qualifiers.hpp"
#include "detail/types.hpp"
#include "detail/context.hpp"
#include "detail/shared.hpp"
#include "detail/barrier.hpp"
#include "detail/warp.hpp"
#include "detail/atomics.hpp"
#include "detail/rmw.hpp"
#include "detail/math.hpp"
#include "detail/half.hpp"
#include "detail/curand.hpp"
#include "detail/printf.hpp"
#include "detail/cooperative_groups.hpp"
#include "detail/coro.hpp"
#include "detail/loops.hpp"  // last: redefines `for` and `while` to add yield points
