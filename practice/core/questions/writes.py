"""Which element each thread writes: index formulas that may collide (two threads, one element) or leave gaps
(elements no thread writes), and 32-bit index overflow on large arrays.

Sources: CONTENT.md's "kernels that write each thread's id (catches collisions/gaps)"; seeds/001 line 1242
(the in-block index `threadIdx.y*blockDim.y + threadIdx.x`, which collides: the erratum); seeds/000 lines
477 and 1469–1554 (2D index, grid-stride loop); seeds/001's vecadd extension (`int` indices overflow past
2³¹, n = 0 launches no block). Exam kind: ECE408/PMPP "which element does thread (b, t) write".
"""
from __future__ import annotations

from collections import Counter

from .base import Family, Topic, code, integer_field, math, p, t

# 1D formulas: (source, f(b, t, B, G) -> index)
FORMULAS_1D = {
    "right": ("blockIdx.x * blockDim.x + threadIdx.x", lambda b, th, B, G: b * B + th),
    "transposed": ("threadIdx.x * gridDim.x + blockIdx.x", lambda b, th, B, G: th * G + b),
    "sum": ("blockIdx.x + threadIdx.x", lambda b, th, B, G: b + th),
    "griddim": ("blockIdx.x * gridDim.x + threadIdx.x", lambda b, th, B, G: b * G + th),
    "half": ("blockIdx.x * blockDim.x + threadIdx.x / 2", lambda b, th, B, G: b * B + th // 2),
    "double": ("(blockIdx.x * blockDim.x + threadIdx.x) * 2", lambda b, th, B, G: (b * B + th) * 2),
}
# 2D formulas over a W x H output, W = gridDim.x*blockDim.x, H = gridDim.y*blockDim.y
FORMULAS_2D = {
    "right": ("y * W + x", lambda x, y, tx, ty, bx, by, BX, BY, GX, W, H: y * W + x),
    "colmajor": ("x * H + y", lambda x, y, tx, ty, bx, by, BX, BY, GX, W, H: x * H + y),
    "swapped": ("x * W + y", lambda x, y, tx, ty, bx, by, BX, BY, GX, W, H: x * W + y),
    "blockwidth": ("y * blockDim.x + x", lambda x, y, tx, ty, bx, by, BX, BY, GX, W, H: y * BX + x),
    "seed001": ("(blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y)\n"
                "          + threadIdx.y * blockDim.y + threadIdx.x",
                lambda x, y, tx, ty, bx, by, BX, BY, GX, W, H: (by * GX + bx) * (BX * BY) + ty * BY + tx),
}
STRIDES = {
    "right": ("int i = blockIdx.x * blockDim.x + threadIdx.x", "gridDim.x * blockDim.x"),
    "block_stride": ("int i = blockIdx.x * blockDim.x + threadIdx.x", "blockDim.x"),
    "grid_stride": ("int i = blockIdx.x * blockDim.x + threadIdx.x", "gridDim.x"),
    "no_block": ("int i = threadIdx.x", "gridDim.x * blockDim.x"),
}


def tally(indices: list[int], n: int) -> dict[str, int]:
    """Elements of out[0..n) written more than once, never written, and writes outside [0, n)."""
    c = Counter(indices)
    return {"multi": sum(1 for i in range(n) if c[i] > 1), "gaps": sum(1 for i in range(n) if c[i] == 0),
            "outside": sum(v for i, v in c.items() if not 0 <= i < n)}


def grid_stride_indices(kind: str, G: int, B: int, n: int) -> list[int]:
    start_src, stride_src = STRIDES[kind]
    out = []
    stride = {"gridDim.x * blockDim.x": G * B, "blockDim.x": B, "gridDim.x": G}[stride_src]
    for b in range(G):
        for th in range(B):
            i = th if kind == "no_block" else b * B + th
            while i < n:
                out.append(i)
                i += stride
    return out


FIELDS = [("multi", "Elements written more than once", "두 번 이상 쓰이는 원소 수"),
          ("gaps", "Elements never written", "한 번도 쓰이지 않는 원소 수")]


class Collisions(Family):
    id = "indexing.collisions"
    topic = Topic.INDEXING
    title = t("Collisions and gaps in a write map", "write map의 충돌과 빈칸")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            f = rng.choice(["right", "sum", "griddim", "half", "double"])
            if f == "right":
                f = rng.choice(["right", "transposed"])  # two right mappings share one slot
            return {"kind": "map_1d", "formula": f, "grid": rng.randint(3, 8), "block": rng.choice([4, 6, 8, 16, 32])}
        if difficulty == 2:
            f = rng.choice(list(FORMULAS_2D))
            bx, by = rng.choice([(4, 2), (2, 4), (8, 4), (4, 8), (4, 4), (8, 2)])
            gx, gy = rng.choice([(2, 3), (3, 2), (2, 2), (4, 2), (3, 3), (2, 4)])
            if f == "seed001" and bx == by:
                bx = 2 * by  # the seed's formula is only wrong on a non-square block
            if f == "swapped" and gx * bx == gy * by:
                gx += 1  # x * W + y is a transpose (a permutation) on a square output
            return {"kind": "map_2d", "formula": f, "block": [bx, by], "grid": [gx, gy],
                    "b": [rng.randrange(gx), rng.randrange(gy)], "t": [rng.randrange(bx), rng.randrange(by)]}
        G, B = rng.randint(2, 6), rng.choice([8, 16, 32, 64])
        return {"kind": "grid_stride", "formula": rng.choice(list(STRIDES)), "grid": G, "block": B,
                "n": rng.randrange(G * B + 1, 4 * G * B)}

    def compose(self, params):
        kind, f = params["kind"], params["formula"]
        fields = [integer_field(k, en, ko) for k, en, ko in FIELDS]
        if kind == "map_1d":
            G, B = params["grid"], params["block"]
            n = G * B
            src, fn = FORMULAS_1D[f]
            idx = [fn(b, th, B, G) for b in range(G) for th in range(B)]
            res = tally(idx, n)
            prompt = [
                p(f"A kernel is launched with {G} blocks of {B} threads on an array `out` of n = {n} ints; every thread "
                  "writes once, with no guard:",
                  f"kernel을 int n = {n}개짜리 배열 `out`에 block {G}개, block당 thread {B}개로 launch합니다. 모든 thread가 "
                  "guard 없이 한 번씩 씁니다."),
                code(f"__global__ void mark(int *out) {{\n    out[{src}] = 1;\n}}\n// mark<<<{G}, {B}>>>(out);"),
                p("How many elements of out[0..n) are written by more than one thread, how many are never written, and "
                  "how many writes land outside out[0..n)?",
                  "out[0..n)의 원소 중 둘 이상의 thread가 쓰는 원소는 몇 개, 한 번도 쓰이지 않는 원소는 몇 개이고, "
                  "out[0..n) 밖으로 나가는 쓰기는 몇 번입니까?"),
            ]
            fields.append(integer_field("outside", "Writes outside out[0..n)", "out[0..n) 밖 쓰기 수"))
            hi = max(idx)
            solution = [math(f"index = {src};  threads {G} × {B} = {n}, indices {min(idx)} … {hi}"),
                        math(f"written more than once: {res['multi']},  never written: {res['gaps']},  "
                             f"outside: {res['outside']}")]
            solution.append(p("A right mapping is a permutation of 0 … n − 1: every element once. "
                              + ("This one is." if res == {"multi": 0, "gaps": 0, "outside": 0} else
                                 "This one is not: list the indices of block 0 and block 1 to see it."),
                              "올바른 mapping은 0 … n − 1의 순열이어서 모든 원소를 한 번씩 씁니다. "
                              + ("이 식은 그렇습니다." if res == {"multi": 0, "gaps": 0, "outside": 0} else
                                 "이 식은 아닙니다. block 0과 block 1의 index를 적어 보면 보입니다.")))
            return prompt, fields, res, solution
        if kind == "map_2d":
            (BX, BY), (GX, GY) = params["block"], params["grid"]
            W, H = GX * BX, GY * BY
            src, fn = FORMULAS_2D[f]
            idx, mine = [], None
            for by in range(GY):
                for bx in range(GX):
                    for ty in range(BY):
                        for tx in range(BX):
                            x, y = bx * BX + tx, by * BY + ty
                            v = fn(x, y, tx, ty, bx, by, BX, BY, GX, W, H)
                            idx.append(v)
                            if [bx, by] == params["b"] and [tx, ty] == params["t"]:
                                mine = v
            res = tally(idx, W * H)
            (qbx, qby), (qtx, qty) = params["b"], params["t"]
            prompt = [
                p(f"A 2D kernel writes a W × H = {W} × {H} output (row-major, n = {W * H} elements) with {BX} × {BY} "
                  f"blocks in a {GX} × {GY} grid, one write per thread:",
                  f"2D kernel이 W × H = {W} × {H} 출력(row-major, 원소 n = {W * H}개)을 {BX} × {BY} block, {GX} × {GY} "
                  "grid로 쓰며, thread마다 한 번 씁니다."),
                code("int x = blockIdx.x * blockDim.x + threadIdx.x;\nint y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                     f"out[{src}] = 1;   // W = {W}, H = {H}"),
                p(f"Which index does the thread with blockIdx = ({qbx}, {qby}), threadIdx = ({qtx}, {qty}) write? How many "
                  "elements of out[0..n) are written more than once, and how many never?",
                  f"blockIdx = ({qbx}, {qby}), threadIdx = ({qtx}, {qty})인 thread는 몇 번 index를 씁니까? out[0..n)의 원소 "
                  "중 두 번 이상 쓰이는 원소와 한 번도 쓰이지 않는 원소는 각각 몇 개입니까?"),
            ]
            fields.insert(0, integer_field("index", "Index written", "쓰는 index"))
            x, y = qbx * BX + qtx, qby * BY + qty
            solution = [math(f"x = {qbx} × {BX} + {qtx} = {x},  y = {qby} × {BY} + {qty} = {y}  →  index {mine}"),
                        math(f"written more than once: {res['multi']},  never written: {res['gaps']}")]
            if f == "seed001":
                solution.append(p("The in-block id must be threadIdx.y * blockDim.x + threadIdx.x (seeds/001 line 1242 "
                                  "writes blockDim.y): with a non-square block two threads share an id.",
                                  "block 안의 id는 threadIdx.y * blockDim.x + threadIdx.x여야 합니다(seeds/001 1242행은 "
                                  "blockDim.y로 씁니다). block이 정사각형이 아니면 두 thread가 같은 id를 받습니다."))
            return prompt, fields, {"index": mine, "multi": res["multi"], "gaps": res["gaps"]}, solution
        G, B, n = params["grid"], params["block"], params["n"]
        start, stride = STRIDES[f]
        idx = grid_stride_indices(f, G, B, n)
        res = tally(idx, n)
        prompt = [
            p(f"A grid-stride loop runs with {G} blocks of {B} threads over n = {n} elements:",
              f"grid-stride loop를 block {G}개, block당 thread {B}개로 n = {n}개 원소에 대해 실행합니다."),
            code(f"{start};\nfor (; i < n; i += {stride})\n    out[i] += 1;   // out starts at 0"),
            p("How many writes are made in all, how many elements are written more than once, and how many are never "
              "written? (Count each `+= 1` as one write.)",
              "쓰기는 모두 몇 번이고, 두 번 이상 쓰이는 원소와 한 번도 쓰이지 않는 원소는 각각 몇 개입니까? "
              "(`+= 1` 한 번을 쓰기 한 번으로 셉니다.)"),
        ]
        fields.insert(0, integer_field("writes", "Writes in all", "전체 쓰기 수"))
        solution = [math(f"start = {start.split('= ')[1]},  stride = {stride}"),
                    math(f"writes = {len(idx)},  more than once: {res['multi']},  never: {res['gaps']}"),
                    p("The stride must be the whole grid, gridDim.x * blockDim.x, and the start the global index: then "
                      "the threads cover every element exactly once.",
                      "stride는 grid 전체인 gridDim.x * blockDim.x, 시작은 global index여야 모든 원소를 정확히 한 번씩 "
                      "다룹니다.")]
        return prompt, fields, {"writes": len(idx), "multi": res["multi"], "gaps": res["gaps"]}, solution


FAMILIES: tuple[Family, ...] = (Collisions(),)
