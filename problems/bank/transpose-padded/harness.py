"""transpose-padded: dst (cols x rows) = src (rows x cols) transposed, float32, row-major."""
import numpy as np


def generate(case, rng):
    rows, cols = int(case["rows"]), int(case["cols"])
    return {
        "src": rng.uniform(-1.0, 1.0, (rows, cols)).astype(np.float32),
        "dst": np.empty((cols, rows), dtype=np.float32),
        "rows": rows,
        "cols": cols,
    }


def reference(inputs):
    return {"dst": np.ascontiguousarray(inputs["src"].T)}
