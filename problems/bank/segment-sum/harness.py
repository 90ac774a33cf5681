"""segment-sum: out[s] = sum of segment s's BLOCK values; a segment is a row (LAYOUT row) or a column
(LAYOUT col) of x. BLOCK and LAYOUT come from the student's variant (problem.yaml `variants`)."""
import numpy as np


def generate(case, rng):
    m, block = int(case["m"]), int(case["BLOCK"])
    return {
        "x": rng.uniform(-1.0, 1.0, m * block).astype(np.float32),
        "out": np.empty(m, dtype=np.float32),
        "m": m,
    }


def reference(inputs, variant):
    m, block = int(inputs["m"]), int(variant["BLOCK"])
    x = inputs["x"].astype(np.float64)
    # row: segment s is x[s * BLOCK : (s + 1) * BLOCK]; col: element t of segment s is x[t * m + s].
    segments = x.reshape(m, block) if variant["LAYOUT"] == "row" else x.reshape(block, m).T
    return {"out": segments.sum(axis=1).astype(np.float32)}
