// Yield points for independent thread scheduling: every loop condition counts down a per-thread
// budget; when it runs out the thread yields to another fiber of its block, so a thread spinning
// on a flag set by another thread of the block makes progress (Volta+ semantics).
// Included LAST, after every standard header, because it redefines two keywords.
#pragma once
#define while(...) while ((::wd::wd_tick(__LINE__), (__VA_ARGS__)))
#define for(...) for (__VA_ARGS__) if (::wd::wd_tick(__LINE__), false) {} else
