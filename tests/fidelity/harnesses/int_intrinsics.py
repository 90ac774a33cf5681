"""Integer intrinsics of u = x[i]: y[6i..6i+5] = __popc(u), __clz(u), __ffs(u), __brev(u) (as int32 bits),
__float_as_int(__int_as_float(u)) and __float_as_int((float)(u & 0xffff)). x: uint32[n]; y: int32[6n]."""
import numpy as np


def generate(case, rng):
    n = int(case["n"])
    x = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    x[:4] = [0, 1, 0x80000000, 0xFFFFFFFF]
    return {"x": x, "y": np.empty(6 * n, np.int32), "n": n}


def _bits(u):
    return np.array([[(int(v) >> k) & 1 for k in range(32)] for v in u], np.int64)


def reference(inputs):
    u = inputs["x"]
    b = _bits(u)
    popc = b.sum(axis=1)
    clz = np.array([32 - int(v).bit_length() for v in u])
    ffs = np.array([(int(v) & -int(v)).bit_length() for v in u])
    brev = np.array([int(f"{int(v):032b}"[::-1], 2) for v in u], np.uint64).astype(np.uint32).view(np.int32)
    same = u.view(np.int32)
    low = (u & 0xFFFF).astype(np.float32).view(np.int32)
    y = np.stack([popc.astype(np.int32), clz.astype(np.int32), ffs.astype(np.int32), brev, same, low], axis=1)
    return {"y": y.reshape(-1).astype(np.int32)}
