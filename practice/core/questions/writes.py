"""Which element each thread writes: index formulas that may collide (two threads, one element) or leave gaps
(elements no thread writes), and 32-bit index overflow on large arrays.

Sources: CONTENT.md's "kernels that write each thread's id (catches collisions/gaps)"; seeds/001 line 1242
(the in-block index `threadIdx.y*blockDim.y + threadIdx.x`, which collides: the erratum); seeds/000 lines
477 and 1469–1554 (2D index, grid-stride loop); seeds/001's vecadd extension (`int` indices overflow past
2³¹, n = 0 launches no block: indexing.limits). Exam kind: ECE408/PMPP "which element does thread (b, t) write".
"""
from __future__ import annotations

from collections import Counter

from ..answers import Choice
from .base import Family, Topic, choice_field, code, integer_field, letters, math, p, t

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
                  f"커널을 int n = {n}개짜리 배열 `out`에 block {G}개, block당 thread {B}개로 실행합니다. 모든 thread가 "
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
                  f"2D 커널이 W × H = {W} × {H} 출력(row-major, 원소 n = {W * H}개)을 {BX} × {BY} block, {GX} × {GY} "
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
            code(f"{start};\nfor (; i < n; i += {stride})\n    out[i] += 1;   // out starts at 0",
                 ko={"out starts at 0": "out은 0에서 시작"}),
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


TWO31 = 2 ** 31
OUTCOMES = {
    "all_busy": t("it runs, and every thread has an element", "실행되고, 모든 thread가 원소를 맡음"),
    "some_idle": t("it runs; some threads of the last block skip the guard's body",
                   "실행되고, 마지막 block의 일부 thread는 guard 안을 건너뜀"),
    "zero_blocks": t("the launch fails: a grid of 0 blocks is an invalid configuration",
                     "실행 실패: block 0개인 grid는 invalid configuration"),
    "too_many_threads": t("the launch fails: more than 1024 threads per block",
                          "실행 실패: block당 thread가 1024개 초과"),
}


class IndexLimits(Family):
    id = "indexing.limits"
    topic = Topic.INDEXING
    title = t("Edge cases of a launch: n = 0 and 32-bit index overflow", "커널 실행의 경계 사례: n = 0과 32-bit index overflow")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            want = rng.choice(list(OUTCOMES))
            T = 2048 if want == "too_many_threads" else rng.choice([128, 256, 512, 1024])
            n = {"all_busy": T * rng.randint(1, 5000), "some_idle": T * rng.randint(0, 5000) + rng.randint(1, T - 1),
                 "zero_blocks": 0, "too_many_threads": rng.randint(1, 10 ** 6)}[want]
            order = list(OUTCOMES)
            rng.shuffle(order)
            return {"kind": "launch", "block": T, "n": n, "order": order}
        T = rng.choice([128, 256, 512, 1024]) if difficulty == 2 else rng.choice([96, 192, 384, 640, 768, 1000])
        return {"kind": "skipped" if difficulty == 2 else "negative", "block": T,
                "n": rng.randrange(TWO31 + 1, 2 ** 32 - 4096)}

    def compose(self, params):
        T, n = params["block"], params["n"]
        blocks = -(-n // T)
        if params["kind"] == "launch":
            outcome = ("too_many_threads" if T > 1024 else "zero_blocks" if n == 0 else
                       "all_busy" if n % T == 0 else "some_idle")
            keys = letters(4)
            choices = [Choice(keys[i], OUTCOMES[k]) for i, k in enumerate(params["order"])]
            prompt = [
                p(f"The vecadd extension of seeds/001 launches its kernel like this, here with n = {n} and T = {T}:",
                  f"seeds/001의 vecadd extension은 커널을 이렇게 실행합니다. 여기서는 n = {n}, T = {T}입니다."),
                code(f"int blocks = (n + T - 1) / T;   // n = {n}, T = {T}\n"
                     "vecadd<<<blocks, T>>>(a, b, c, n);   // kernel: if (i < n) c[i] = a[i] + b[i];\n"
                     "cudaError_t err = cudaGetLastError();",
                     ko={"// kernel: if": "// 커널 본문: if"}),
                p("How many blocks does the host ask for, and what happens?",
                  "host가 요청하는 block은 몇 개이고, 어떻게 됩니까?"),
            ]
            fields = [integer_field("blocks", "blocks", "blocks"),
                      choice_field("outcome", "What happens", "결과", choices)]
            solution = [math(f"blocks = ({n} + {T} − 1) / {T} = {blocks}"),
                        p("A grid needs at least one block and a block at most 1024 threads; otherwise "
                          "cudaGetLastError() reports cudaErrorInvalidConfiguration and nothing runs. With n = 0 the "
                          "extension must return before launching.",
                          "grid에는 block이 하나 이상, block에는 thread가 1024개 이하여야 합니다. 아니면 cudaGetLastError()가 "
                          "cudaErrorInvalidConfiguration을 알리고 아무것도 실행되지 않습니다. n = 0이면 extension은 커널을 "
                          "실행하기 전에 반환해야 합니다.")]
            return prompt, fields, {"blocks": blocks, "outcome": keys[params["order"].index(outcome)]}, solution
        if params["kind"] == "skipped":
            prompt = [
                p(f"A kernel scales n = {n} floats (more than 2³¹), one thread per element, with {T}-thread blocks and "
                  f"⌈n / {T}⌉ blocks. The index is a 32-bit `int`; n is a `size_t`:",
                  f"커널이 float n = {n}개(2³¹보다 많음)를 원소당 thread 하나, block당 thread {T}개, block ⌈n / {T}⌉개로 "
                  "처리하며 각 원소에 배율을 곱합니다. index는 32-bit `int`이고 n은 `size_t`입니다."),
                code("int i = blockIdx.x * blockDim.x + threadIdx.x;   // unsigned product, then stored in an int\n"
                     "if (i < n) x[i] *= 2.0f;                          // i converted to size_t for the comparison",
                     ko={"unsigned product, then stored in an int": "unsigned 곱을 int에 저장",
                         "i converted to size_t for the comparison": "비교할 때 i를 size_t로 변환"}),
                p("How many blocks does the grid have, and how many elements are never scaled?",
                  "grid의 block은 몇 개이고, 배율이 곱해지지 않는 원소는 몇 개입니까?"),
            ]
            fields = [integer_field("blocks", "Blocks", "block 수"), integer_field("skipped", "Elements never scaled",
                                                                                 "배율이 곱해지지 않는 원소 수")]
            solution = [math(f"blocks = ⌈{n} / {T}⌉ = {blocks}"),
                        p("Global ids from 2³¹ on wrap to negative ints; converted to size_t they become huge, so "
                          f"`i < n` is false and those threads do nothing: elements 2³¹ … n − 1 are left, {n - TWO31} of "
                          "them. Use `size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x`.",
                          "2³¹ 이상의 global id는 int 범위를 넘어 음수가 되고, size_t로 바뀌면 매우 커져 `i < n`이 거짓이 되므로 그 "
                          f"thread들은 아무것도 하지 않습니다. 원소 2³¹ … n − 1, 곧 {n - TWO31}개가 남습니다. "
                          "`size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x`를 씁니다.")]
            return prompt, fields, {"blocks": blocks, "skipped": n - TWO31}, solution
        first = -(-(TWO31 - (T - 1)) // T)
        negative = blocks * T - TWO31
        prompt = [
            p(f"The same kernel over n = {n} elements with {T}-thread blocks and ⌈n / {T}⌉ blocks, but n is a "
              "`long long`:",
              f"같은 커널을 n = {n}개 원소에 block당 thread {T}개, block ⌈n / {T}⌉개로 실행하는데, n이 `long long`입니다."),
            code("int i = blockIdx.x * blockDim.x + threadIdx.x;   // wraps past 2^31 - 1\n"
                 "if (i < n) x[i] *= 2.0f;                          // i converted to long long: stays negative",
                 ko={"wraps past 2^31 - 1": "2^31 - 1을 넘으면 음수로 돌아감", "i converted to long long: stays negative":
                     "i를 long long으로 변환해도 음수"}),
            p("Which is the first blockIdx.x with a thread whose `i` is negative, and how many threads of the grid get "
              "a negative `i` (each of them writes before `x`)?",
              "`i`가 음수인 thread가 있는 첫 blockIdx.x는 무엇이고, grid에서 `i`가 음수인 thread는 몇 개입니까(그 thread는 "
              "모두 `x` 앞쪽 주소에 씁니다)?"),
        ]
        fields = [integer_field("first_block", "First block with a negative i", "i가 음수인 첫 block"),
                  integer_field("negative", "Threads with a negative i", "i가 음수인 thread 수")]
        solution = [math(f"first block b: b·{T} + {T - 1} ≥ 2³¹ = {TWO31}  →  b = {first}"),
                    math(f"threads with ids {TWO31} … {blocks * T - 1}: {blocks} × {T} − 2³¹ = {negative}"),
                    p("Compared with a long long, the negative int passes the guard: an out-of-bounds write, not a skip.",
                      "long long과 비교하면 음수 int가 guard를 통과합니다. 건너뛰는 것이 아니라 범위 밖 쓰기입니다.")]
        return prompt, fields, {"first_block": first, "negative": negative}, solution


FAMILIES: tuple[Family, ...] = (Collisions(), IndexLimits())
