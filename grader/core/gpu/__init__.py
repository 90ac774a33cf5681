"""The pieces of the GPU path: nvcc compilation and its cache, ptxas and sanitizer parsing,
the child process that runs kernels with PyCUDA, and the pool that keeps children warm.

Only `child` imports PyCUDA, and only in the child process itself: importing this package (or
any other module in it) on a machine without a GPU loads nothing of CUDA's.
"""
