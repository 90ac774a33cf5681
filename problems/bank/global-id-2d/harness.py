"""global-id-2d: out[y, x] = rank of the thread covering pixel (x, y), blocks of 16 x 8.

rank = (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y)
       + threadIdx.y * blockDim.x + threadIdx.x
"""
import numpy as np

BLOCK_X, BLOCK_Y = 16, 8  # must match problem.yaml's launch


def generate(case, rng):
    width, height = int(case["width"]), int(case["height"])
    return {"out": np.empty((height, width), dtype=np.int32), "width": width, "height": height}


def reference(inputs):
    width, height = inputs["width"], inputs["height"]
    grid_x = -(-width // BLOCK_X)
    y, x = np.indices((height, width), dtype=np.int64)
    block_rank = (y // BLOCK_Y) * grid_x + (x // BLOCK_X)
    local_rank = (y % BLOCK_Y) * BLOCK_X + (x % BLOCK_X)
    return {"out": (block_rank * (BLOCK_X * BLOCK_Y) + local_rank).astype(np.int32)}
