"""CUDA driver errors as the GPU child reports them: their names, and what they mean for a run.

PyCUDA raises with the driver's error *string* ("cuCtxSynchronize failed: an illegal memory
access was encountered"); the table maps those strings to the CUresult names students look up.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CudaError:
    """One CUresult the child can meet running a student's kernel."""

    name: str  # CUresult name, e.g. CUDA_ERROR_ILLEGAL_ADDRESS
    text: str  # the driver's cuGetErrorString text
    sticky: bool  # the context is unusable afterwards: the child must be replaced
    hint: str  # one sentence for the student


ERRORS = (
    CudaError("CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered", True,
              "A thread read or wrote memory outside every allocation (check your index bounds)."),
    CudaError("CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address", True,
              "A thread accessed memory at an address not aligned to the access size."),
    CudaError("CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure", True,
              "The kernel stopped with an exception (a trap, or a fault the GPU could not attribute)."),
    CudaError("CUDA_ERROR_ASSERT", "device-side assert triggered", True,
              "An assert() in the kernel failed."),
    CudaError("CUDA_ERROR_ILLEGAL_INSTRUCTION", "an illegal instruction was encountered", True,
              "The kernel executed an illegal instruction."),
    CudaError("CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error", True,
              "A thread overflowed its call stack (deep or unbounded recursion?)."),
    CudaError("CUDA_ERROR_INVALID_PC", "invalid program counter", True,
              "The kernel jumped to an invalid program counter."),
    CudaError("CUDA_ERROR_INVALID_ADDRESS_SPACE", "operation not supported on global/shared address space", True,
              "An instruction was used on memory of the wrong address space."),
    CudaError("CUDA_ERROR_LAUNCH_TIMEOUT", "the launch timed out and was terminated", True,
              "The kernel ran past the driver's watchdog."),
    CudaError("CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch", False,
              "The block needs more registers (or other resources) than one SM has for it: use fewer threads per block or fewer registers."),
    CudaError("CUDA_ERROR_INVALID_VALUE", "invalid argument", False,
              "The launch was refused: a grid/block dimension or the dynamic shared memory size is out of range."),
    CudaError("CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks in cooperative launch", False,
              "More blocks than can be resident at once for a cooperative launch."),
    CudaError("CUDA_ERROR_OUT_OF_MEMORY", "out of memory", False,
              "The launch needs more memory than the GPU has (local memory per thread x threads?)."),
    CudaError("CUDA_ERROR_NOT_SUPPORTED", "operation not supported", False,
              "The kernel uses a feature this GPU does not support."),
)

_BY_TEXT = {e.text: e for e in ERRORS}
_BY_NAME = {e.name: e for e in ERRORS}

# Errors that mean the GPU or driver itself is broken: the platform's fault, never the student's.
PLATFORM_TEXTS = (
    "no CUDA-capable device is detected",
    "CUDA driver version is insufficient",
    "unknown error",
    "system has unsupported display driver",
    "uncorrectable ECC error encountered",
    "device kernel image is invalid",
    "initialization error",
    "operating system call failed",
    "system not yet initialized",
)


def classify(message: str) -> CudaError | None:
    """The CudaError a PyCUDA exception message names, or None when it is not in the table."""
    for name, err in _BY_NAME.items():
        if name in message:
            return err
    for text, err in _BY_TEXT.items():
        if text in message:
            return err
    return None


def is_platform_fault(message: str) -> bool:
    """True when the message names a driver/GPU failure rather than the student's kernel."""
    return any(text in message for text in PLATFORM_TEXTS)
