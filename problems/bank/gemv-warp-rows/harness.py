"""gemv-warp-rows: y = A x, A rows x cols row-major float32, float64 reference."""
import numpy as np


def generate(case, rng):
    r, c = int(case["rows"]), int(case["cols"])
    return {"A": rng.uniform(-1, 1, (r, c)).astype(np.float32), "x": rng.uniform(-1, 1, c).astype(np.float32),
            "y": np.empty(r, np.float32), "rows": r, "cols": c}


def reference(inputs):
    return {"y": (inputs["A"].astype(np.float64) @ inputs["x"].astype(np.float64)).astype(np.float32)}
