"""matrix-add-2d: C = A + B for height x width float32 matrices, row-major."""
import numpy as np


def generate(case, rng):
    width, height = int(case["width"]), int(case["height"])
    shape = (height, width)
    return {
        "A": rng.uniform(-10.0, 10.0, shape).astype(np.float32),
        "B": rng.uniform(-10.0, 10.0, shape).astype(np.float32),
        "C": np.empty(shape, dtype=np.float32),
        "width": width,
        "height": height,
    }


def reference(inputs):
    return {"C": (inputs["A"] + inputs["B"]).astype(np.float32)}
