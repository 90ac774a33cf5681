"""spmv-csr: y = A x for a rows x rows CSR matrix (row_ptr, col, val); rows have 0..12 non-zeros."""
import numpy as np


def generate(case, rng):
    rows = int(case["rows"])
    per_row = rng.integers(0, 13, rows)
    per_row[rng.random(rows) < 0.1] = 0  # some empty rows
    per_row[-1] = max(per_row[-1], 1)  # the last row is never empty: its end is the arrays' end
    row_ptr = np.concatenate([[0], np.cumsum(per_row)]).astype(np.int32)
    nnz = int(row_ptr[-1])
    col = rng.integers(0, rows, nnz).astype(np.int32)
    return {"row_ptr": row_ptr, "col": col, "val": rng.uniform(-1, 1, nnz).astype(np.float32),
            "x": rng.uniform(-1, 1, rows).astype(np.float32), "y": np.empty(rows, np.float32), "rows": rows}


def reference(inputs):
    rp, col, val, x = inputs["row_ptr"], inputs["col"], inputs["val"].astype(np.float64), inputs["x"].astype(np.float64)
    products = val * x[col]
    sums = np.add.reduceat(np.concatenate([products, [0.0]]), rp[:-1]) * (np.diff(rp) > 0)
    return {"y": sums.astype(np.float32)}
