"""volume-3d: out = 7-point Laplacian of u (nz x ny x nx, x fastest), u = 0 outside the volume."""
import numpy as np


def generate(case, rng):
    nx, ny, nz = int(case["nx"]), int(case["ny"]), int(case["nz"])
    return {"u": rng.uniform(-1, 1, (nz, ny, nx)).astype(np.float32), "out": np.empty((nz, ny, nx), np.float32),
            "nx": nx, "ny": ny, "nz": nz}


def reference(inputs):
    u = np.pad(inputs["u"].astype(np.float64), 1)
    c = u[1:-1, 1:-1, 1:-1]
    lap = (u[1:-1, 1:-1, :-2] + u[1:-1, 1:-1, 2:] + u[1:-1, :-2, 1:-1] + u[1:-1, 2:, 1:-1]
           + u[:-2, 1:-1, 1:-1] + u[2:, 1:-1, 1:-1] - 6.0 * c)
    return {"out": lap.astype(np.float32)}
