"""cross-entropy-ignore: loss_sum = sum over rows with target != -100 of
log(sum_c exp(l_c - m)) + m - l[target], valid = the number of such rows.

Rows are offset by -1000, 0 or +1000 (cycled), so a kernel without the max subtraction gets
inf/NaN; about one row in three has target -100 (rows 1 and 3 always do)."""
import numpy as np

IGNORE = -100


def generate(case, rng):
    rows, classes = int(case["rows"]), int(case["classes"])
    offset = np.array([-1000.0, 0.0, 1000.0])[np.arange(rows) % 3][:, None]
    logits = (offset + rng.uniform(-6.0, 6.0, (rows, classes))).astype(np.float32)
    target = rng.integers(0, classes, rows).astype(np.int32)
    target[rng.random(rows) < 0.3] = IGNORE
    target[1::2][:2] = IGNORE
    return {"logits": logits, "target": target, "loss_sum": np.zeros(1, np.float32),
            "valid": np.zeros(1, np.int32), "rows": rows, "classes": classes}


def reference(inputs):
    l = inputs["logits"].astype(np.float64)
    t = inputs["target"]
    keep = t != IGNORE
    m = l.max(axis=1)
    lse = np.log(np.exp(l - m[:, None]).sum(axis=1)) + m
    losses = lse[keep] - l[keep, t[keep]]
    return {"loss_sum": np.array([losses.sum()], np.float32), "valid": np.array([keep.sum()], np.int32)}
