"""The GPU child's side of the grid.sync() check (grader/core/gridsync.py): the host word a trapped
check writes its line to, and the two globals of GPU_PRELUDE it sets in each module it loads.

The word is mapped host memory (cuMemHostAlloc with DEVICEMAP), so the child reads it after the
trap has made the context unusable. Imports CUDA only through the driver objects it is given.
"""
from __future__ import annotations

import numpy as np

# The globals of gridsync.GPU_PRELUDE: where a grid.sync() check writes its line, and the flag that
# lets the call through in the module launched cooperatively.
GRID_REPORT = "__warpdrill_grid_sync_report"
COOPERATIVE_FLAG = "__warpdrill_cooperative_launch"


class GridSyncReport:
    """One mapped int32 per child, allocated when the first module with the check is loaded."""

    def __init__(self, drv):
        self.drv = drv  # pycuda.driver
        self.word = None

    def address(self) -> int:
        """The word's device address (allocating it on first use)."""
        if self.word is None:
            self.word = self.drv.pagelocked_zeros((1,), np.int32, mem_flags=self.drv.host_alloc_flags.DEVICEMAP)
        return int(self.word.base.get_device_pointer())

    def arm(self, module) -> None:
        """Point a PyCUDA module's check (if it has one) at the word; its flag stays 0 (ordinary launches)."""
        try:
            address, _ = module.get_global(GRID_REPORT)
        except self.drv.Error:
            return  # no grid.sync() in this source: no check compiled in
        self.drv.memcpy_htod(address, np.array([self.address()], np.uint64))

    def arm_cooperative(self, cu, module, check) -> None:
        """Point a driver-API module's check at the word and set its flag: it is launched cooperatively.
        `check(cu, err, call)` raises on a failed call (child._check)."""
        for name, value, dtype in ((GRID_REPORT, self.address(), np.uint64), (COOPERATIVE_FLAG, 1, np.int32)):
            err, address, _ = cu.cuModuleGetGlobal(module, name.encode())
            if err == cu.CUresult.CUDA_SUCCESS:
                word = np.array([value], dtype)
                check(cu, cu.cuMemcpyHtoD(address, word.ctypes.data, word.nbytes)[0], "cuMemcpyHtoD")

    def take_line(self) -> int:
        """The line of the check that trapped in the last launch (0: none), then cleared."""
        if self.word is None:
            return 0
        line = int(self.word[0])
        self.word[0] = 0
        return line
