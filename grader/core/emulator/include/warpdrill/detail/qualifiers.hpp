// CUDA's function and variable qualifiers, which mean nothing on the CPU.
#pragma once
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __constant__
#define __managed__
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
