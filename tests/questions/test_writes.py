"""indexing.collisions: every thread of the launch is run here in Python from the source line the student reads
(the formula is evaluated as C integer arithmetic over blockIdx/threadIdx), and the writes are counted."""
import re
from collections import Counter

from .familycheck import assert_family_basics, assert_not_guessable, questions


def code_of(q):
    return "\n".join(b["text"] for b in q.render("en")["prompt"] if b["kind"] == "code")


def c_eval(expr, env):
    """A C integer expression of + * / and parentheses over the names in env (non-negative ints: / truncates)."""
    py = re.sub(r"(?<![/])/(?![/])", "//", expr.replace("\n", " "))
    return eval(py, {"__builtins__": {}}, env)  # noqa: S307 - our own generated source


def counts(idx, n):
    c = Counter(idx)
    return (sum(1 for i in range(n) if c[i] > 1), sum(1 for i in range(n) if c[i] == 0),
            sum(v for i, v in c.items() if not 0 <= i < n))


def test_basics():
    assert_family_basics("indexing.collisions")


def test_1d_by_running_every_thread():
    zero = 0
    for q in questions("indexing.collisions", 1):
        src = code_of(q)
        expr = re.search(r"out\[(.*)\] = 1;", src).group(1)
        G, B = map(int, re.search(r"mark<<<(\d+), (\d+)>>>", src).groups())
        env = {"gridDim": None}
        idx = []
        for b in range(G):
            for th in range(B):
                e = expr.replace("blockIdx.x", str(b)).replace("threadIdx.x", str(th)) \
                    .replace("blockDim.x", str(B)).replace("gridDim.x", str(G))
                idx.append(c_eval(e, env))
        multi, gaps, outside = counts(idx, G * B)
        assert q.answer == {"multi": multi, "gaps": gaps, "outside": outside}
        zero += (multi, gaps, outside) == (0, 0, 0)
    assert zero / 300 <= 0.4  # "all zero" (a right mapping) is not the safe guess


def test_2d_by_running_every_thread():
    for q in questions("indexing.collisions", 2):
        src = code_of(q)
        expr = re.search(r"out\[(.*?)\] = 1;", src, re.S).group(1)
        W, H = map(int, re.search(r"W = (\d+), H = (\d+)", src).groups())
        (BX, BY), (GX, GY) = q.params["block"], q.params["grid"]
        idx, mine = [], None
        for by in range(GY):
            for bx in range(GX):
                for ty in range(BY):
                    for tx in range(BX):
                        env = {"x": bx * BX + tx, "y": by * BY + ty, "W": W, "H": H}
                        e = (expr.replace("blockIdx.y", str(by)).replace("blockIdx.x", str(bx))
                             .replace("threadIdx.y", str(ty)).replace("threadIdx.x", str(tx))
                             .replace("blockDim.x", str(BX)).replace("blockDim.y", str(BY)).replace("gridDim.x", str(GX)))
                        v = c_eval(e, env)
                        idx.append(v)
                        if [bx, by] == q.params["b"] and [tx, ty] == q.params["t"]:
                            mine = v
        multi, gaps, _ = counts(idx, W * H)
        assert q.answer == {"index": mine, "multi": multi, "gaps": gaps}
        if q.params["formula"] not in ("right", "colmajor"):
            assert multi or gaps, q.params  # every wrong formula shows itself
    assert_not_guessable([q.answer["index"] for q in questions("indexing.collisions", 2)], 4)


def test_grid_stride_by_running_the_loop():
    for q in questions("indexing.collisions", 3):
        G, B, n = q.params["grid"], q.params["block"], q.params["n"]
        src = code_of(q)
        start = re.search(r"int i = (.*);", src).group(1)
        stride = re.search(r"i \+= (.*)\)", src).group(1)
        out = [0] * n
        for b in range(G):
            for th in range(B):
                env = {}
                rep = lambda e: (e.replace("blockIdx.x", str(b)).replace("threadIdx.x", str(th))  # noqa: E731
                                 .replace("blockDim.x", str(B)).replace("gridDim.x", str(G)))
                i, s = c_eval(rep(start), env), c_eval(rep(stride), env)
                while i < n:
                    out[i] += 1
                    i += s
        assert q.answer == {"writes": sum(out), "multi": sum(v > 1 for v in out), "gaps": out.count(0)}
    assert_not_guessable([q.answer["writes"] for q in questions("indexing.collisions", 3)], 4)


def test_limits_launch_outcomes():
    from collections import Counter
    keys = Counter()
    for q in questions("indexing.limits", 1):
        T, n = q.params["block"], q.params["n"]
        blocks = (n + T - 1) // T
        assert q.answer["blocks"] == blocks
        label = {c.key: c.label["en"] for c in q.fields[1].choices}[q.answer["outcome"]]
        want = ("more than 1024" if T > 1024 else "0 blocks" if blocks == 0 else
                "every thread has" if blocks * T == n else "some threads")
        assert want in label, (T, n, label)
        keys[q.answer["outcome"]] += 1
    assert max(keys.values()) / 300 <= 0.4 and len(keys) == 4


def test_limits_overflow_with_numpy_int32_wrapping():
    import numpy as np
    for d in (2, 3):
        for q in questions("indexing.limits", d, range(100)):
            T, n = q.params["block"], q.params["n"]
            blocks = -(-n // T)
            assert blocks * T < 2 ** 32  # the unsigned product does not wrap itself

            def i_of(b, th):
                return int(np.array([b * T + th], dtype=np.uint32).astype(np.int32)[0])

            # every thread's i, per block: negative from the first wrapped block on (monotone: search it)
            lo, hi = 0, blocks - 1
            while lo < hi:
                mid = (lo + hi) // 2
                if i_of(mid, T - 1) < 0:
                    hi = mid
                else:
                    lo = mid + 1
            negative = sum(1 for th in range(T) if i_of(lo, th) < 0) + (blocks - 1 - lo) * T
            if d == 2:
                # size_t comparison: a negative int becomes 2**64 + i, never < n
                done = sum(1 for th in range(T) if 0 <= i_of(lo, th) < n) + lo * T
                assert q.answer == {"blocks": blocks, "skipped": n - done}
            else:
                assert q.answer == {"first_block": lo, "negative": negative}
