"""Warp-divergence question families: which warps of a launch diverge at a bounds guard or at a condition
on threadIdx.x, and how much of the SIMD width does useful work.

Sources: seeds/000 lines 429–518 (the 1D and 2D guards `if (i < N)`, `if (x < w && y < h)`) and the
exam kind "how many warps diverge" (PMPP 4th ed. ch. 4 exercises; UIUC ECE408 quizzes on control
divergence, e.g. `if (threadIdx.x % 2 == 0)` and boundary warps of a 2D image).

A warp is 32 consecutive threads of a block in x-fastest order (threadIdx.y * blockDim.x + threadIdx.x).
A warp *diverges* at a branch when some but not all of its 32 lanes take it.
"""
from __future__ import annotations

from ..korean import josa
from .base import Family, Topic, code, fraction_field, integer_field, math, p, t

BLOCKS_2D = [(16, 16), (32, 8), (32, 16), (8, 8), (16, 8), (32, 4), (64, 4), (8, 16)]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def warp_counts_2d(w: int, h: int, bx: int, by: int) -> dict[str, int]:
    """Warps of a bx × by-block launch over a w × h image guarded by `x < w && y < h`.

    Only blocks in the last block column or the last block row can hold inactive lanes, so only those are
    walked; inside each warp the lanes are counted one block row segment at a time (no per-thread loop).
    Returns {"warps": all warps, "divergent": warps with some but not all lanes active,
    "idle": warps with no active lane}.
    """
    gx, gy = _ceil_div(w, bx), _ceil_div(h, by)
    per_block = bx * by // 32
    total = gx * gy * per_block
    divergent = idle = 0
    edge = {(gx - 1, j) for j in range(gy)} | {(i, gy - 1) for i in range(gx)}
    for bxi, byi in edge:
        x0, y0 = bxi * bx, byi * by
        for wi in range(per_block):
            active, lane = 0, 32 * wi
            while lane < 32 * wi + 32:
                ty, tx = divmod(lane, bx)
                seg = min(bx - tx, 32 * wi + 32 - lane)  # lanes of this warp in block row ty
                if y0 + ty < h:
                    active += max(0, min(seg, w - (x0 + tx)))
                lane += seg
            if active == 0:
                idle += 1
            elif active < 32:
                divergent += 1
    return {"warps": total, "divergent": divergent, "idle": idle}


# Conditions on t = threadIdx.x for difficulty 3: (kind, C source, predicate).
def _condition(kind: str, k: int, m: int) -> tuple[str, object]:
    if kind == "mod_eq":
        return f"threadIdx.x % {k} == 0", lambda x: x % k == 0
    if kind == "lt":
        return f"threadIdx.x < {k}", lambda x: x < k
    if kind == "div_even":
        return f"(threadIdx.x / {k}) % 2 == 0", lambda x: (x // k) % 2 == 0
    return f"threadIdx.x % {k} < {m}", lambda x: x % k < m


class BoundaryWarps(Family):
    id = "divergence.boundary_warps"
    topic = Topic.DIVERGENCE
    title = t("Divergent warps and SIMD efficiency", "분기되는 warp와 SIMD efficiency")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            block = rng.choice([64, 128, 256, 512])
            n = rng.randrange(1000, 200_000)
            if rng.random() < 0.2:
                n -= n % 32  # a multiple of 32 but not of the block: idle warps, none divergent
            return {"kind": "1d", "n": n, "block": block}
        if difficulty == 2:
            bx, by = rng.choice(BLOCKS_2D)
            return {"kind": "2d", "w": rng.randrange(100, 2000), "h": rng.randrange(60, 1200), "bx": bx, "by": by}
        kind = rng.choice(["mod_eq", "lt", "div_even", "mod_lt"])
        block = rng.choice([64, 128, 256, 512])
        m = 0
        if kind == "mod_eq":
            k = rng.choice([2, 4, 8, 16, 32, 64, 128])
        elif kind == "lt":
            k = rng.randrange(1, block)
        elif kind == "div_even":
            k = rng.choice([1, 2, 4, 8, 16, 32, 64])
        else:
            k = rng.choice([8, 16, 32, 64, 128])
            m = rng.randrange(1, k)
        return {"kind": kind, "block": block, "k": k, "m": m}

    def compose(self, params):
        kind = params["kind"]
        if kind == "1d":
            return self._one_d(params)
        if kind == "2d":
            return self._two_d(params)
        return self._condition(params)

    def _one_d(self, params):
        n, b = params["n"], params["block"]
        blocks = _ceil_div(n, b)
        warps = blocks * b // 32
        divergent = 1 if n % 32 else 0
        eff = n / (warps * 32)
        prompt = [
            p(f"A kernel over n = {n} elements is launched with {b} threads per block and "
              f"⌈n / {b}⌉ blocks; every thread runs the guarded statement below. Warps are 32 consecutive threads.",
              f"원소 n = {n}개를 처리하는 커널을 block당 thread {b}개, block ⌈n / {b}⌉개로 실행합니다. 모든 "
              "thread가 아래의 guard 문을 실행합니다. warp는 연속된 thread 32개입니다."),
            code("int i = blockIdx.x * blockDim.x + threadIdx.x;\nif (i < n) y[i] = a * x[i] + y[i];"),
            p("How many warps are launched, how many of them diverge at `if (i < n)` (some lanes in, some out), and "
              "what is the SIMD efficiency of the guarded statement over the whole launch (active lanes / (32 × "
              "warps launched))?",
              "실행되는 warp는 모두 몇 개이고, 그중 `if (i < n)`에서 분기되는 warp(일부 lane만 조건을 만족)는 "
              "몇 개입니까? 또 grid 전체에서 guard 문의 SIMD efficiency (active lane 수 / (32 × 실행된 warp 수))는 "
              "얼마입니까?"),
        ]
        fields = [integer_field("warps", "Warps launched", "실행된 warp 수"),
                  integer_field("divergent", "Divergent warps", "분기되는 warp 수"),
                  fraction_field("efficiency", "SIMD efficiency", "SIMD efficiency", tol=0.0005)]
        answer = {"warps": warps, "divergent": divergent, "efficiency": round(eff, 6)}
        solution = [
            math(f"blocks = ⌈{n} / {b}⌉ = {blocks},  warps = {blocks} × {b} / 32 = {warps}"),
            p(f"Only the warp that contains i = n − 1 = {n - 1} and i = n can be split: it diverges when n is not a "
              f"multiple of 32 (n mod 32 = {n % 32}). Warps entirely past n are idle, not divergent.",
              f"i = n − 1 = {josa(n - 1, '과')} i = n을 함께 가진 warp만 갈라질 수 있습니다. n이 32의 배수가 아니면(n mod 32 = "
              f"{n % 32}) 그 warp가 분기됩니다. 전부 n 이후인 warp는 분기되는 것이 아니라 idle입니다."),
            math(f"divergent = {divergent},  efficiency = {n} / ({warps} × 32) = {eff:.4f}"),
        ]
        return [*prompt], fields, answer, solution

    def _two_d(self, params):
        w, h, bx, by = params["w"], params["h"], params["bx"], params["by"]
        c = warp_counts_2d(w, h, bx, by)
        gx, gy = _ceil_div(w, bx), _ceil_div(h, by)
        prompt = [
            p(f"An image of width {w} and height {h} is processed by a 2D kernel with {bx} × {by} blocks and a "
              f"{gx} × {gy} grid (⌈w / {bx}⌉ × ⌈h / {by}⌉). Threads of a block form warps in the order "
              "threadIdx.y * blockDim.x + threadIdx.x, 32 per warp.",
              f"너비 {w}, 높이 {h}인 이미지를 {bx} × {by} block, {gx} × {gy} grid(⌈w / {bx}⌉ × ⌈h / {by}⌉)의 2D "
              "커널로 처리합니다. block의 thread는 threadIdx.y * blockDim.x + threadIdx.x 순서로 32개씩 warp를 "
              "이룹니다."),
            code("int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "if (x < width && y < height)\n    out[y * width + x] = 255 - in[y * width + x];"),
            p("How many warps are launched, how many diverge at the guard (some lanes in, some out), and how many "
              "are idle (no lane in)?",
              "실행되는 warp는 모두 몇 개이고, guard에서 분기되는 warp(일부 lane만 조건 만족)와 idle warp(조건을 "
              "만족하는 lane이 없음)는 각각 몇 개입니까?"),
        ]
        fields = [integer_field("warps", "Warps launched", "실행된 warp 수"),
                  integer_field("divergent", "Divergent warps", "분기되는 warp 수"),
                  integer_field("idle", "Idle warps", "idle warp 수")]
        answer = dict(c)
        rows_per_warp = max(1, 32 // bx)
        solution = [
            math(f"warps = {gx} × {gy} × ({bx} × {by} / 32) = {c['warps']}"),
            p(f"Only blocks in the last block column (x ≥ {(gx - 1) * bx}) or last block row (y ≥ {(gy - 1) * by}) "
              f"hold lanes outside the image. A warp covers {'a part of one block row' if bx >= 32 else f'{rows_per_warp} block rows of {bx} threads'}: "
              f"it diverges when the column edge x = {w} cuts its row segment"
              + ("" if bx >= 32 else f", or when the row edge y = {h} falls between its rows") + ".",
              f"이미지 밖의 lane은 마지막 block 열(x ≥ {(gx - 1) * bx})이나 마지막 block 행(y ≥ {(gy - 1) * by})의 "
              f"block에만 있습니다. warp 하나는 {'block 한 행의 일부' if bx >= 32 else f'thread {bx}개짜리 block 행 {rows_per_warp}개'}를 "
              f"덮으므로, 열 경계 x = {josa(w, '가')} 그 구간을 자르면"
              + ("" if bx >= 32 else f", 또는 행 경계 y = {josa(h, '가')} 그 행들 사이에 오면") + " 분기됩니다."),
            math(f"w mod {bx} = {w % bx},  h mod {by} = {h % by}"),
            math(f"divergent = {c['divergent']},  idle = {c['idle']}"),
        ]
        return prompt, fields, answer, solution

    def _condition(self, params):
        b, k, m = params["block"], params["k"], params["m"]
        src, pred = _condition(params["kind"], k, m)
        taken = [pred(x) for x in range(b)]
        divergent = taking_warps = 0
        for wi in range(b // 32):
            n_in = sum(taken[32 * wi:32 * wi + 32])
            taking_warps += n_in > 0
            divergent += 0 < n_in < 32
        n_taken = sum(taken)
        eff = n_taken / (32 * taking_warps) if taking_warps else 1.0
        prompt = [
            p(f"A kernel is launched with 1D blocks of {b} threads. Every thread reaches the branch below.",
              f"커널을 thread {b}개짜리 1D block으로 실행합니다. 모든 thread가 아래 if 문에 도달합니다."),
            code(f"if ({src}) {{\n    work(threadIdx.x);\n}}"),
            p("How many warps of one block diverge at this branch, and what is the SIMD efficiency of `work` "
              "(lanes that take the branch / (32 × warps that execute the body))?",
              "block 하나에서 이 if 문에서 분기되는 warp는 몇 개이고, `work`의 SIMD efficiency (조건이 참인 lane 수 / "
              "(32 × body를 실행하는 warp 수))는 얼마입니까?"),
        ]
        fields = [integer_field("divergent", "Divergent warps per block", "block당 분기되는 warp 수"),
                  fraction_field("efficiency", "SIMD efficiency of work", "work의 SIMD efficiency", tol=0.0005)]
        answer = {"divergent": divergent, "efficiency": round(eff, 6)}
        solution = [
            p("A condition splits a warp only if it changes value inside a run of 32 consecutive threadIdx.x "
              "values; a condition that is constant on each aligned group of 32 costs nothing.",
              "조건이 연속된 threadIdx.x 32개 안에서 값이 바뀔 때만 warp가 갈라집니다. 32개씩 정렬된 묶음마다 값이 "
              "일정한 조건은 분기 비용이 없습니다."),
            math(f"threads taking the branch = {n_taken},  warps executing work = {taking_warps}"),
            math(f"divergent = {divergent},  efficiency = {n_taken} / (32 × {taking_warps}) = {eff:.4f}"),
        ]
        return prompt, fields, answer, solution


class BranchCost(Family):
    """If/else costs under divergence: a warp runs every path that at least one of its lanes takes.

    Source: the exam kind "execution time of a divergent if/else" (PMPP ch. 4; ECE408 quiz on control
    divergence), with seeds/000's `if (i < N)` guard as the one-sided case.
    """

    id = "divergence.branch_cost"
    topic = Topic.DIVERGENCE
    title = t("Cost of a divergent branch", "warp 분기의 비용")

    def make_params(self, rng, difficulty):
        block = rng.choice([128, 256, 512])
        a, b = rng.randrange(10, 100), rng.randrange(10, 100)
        if difficulty == 1:
            return {"shape": "if", "block": block, "cond": ["lt", rng.randrange(1, block), 0], "a": a, "b": 0}
        if difficulty == 2:
            kind = rng.choice(["lt", "mod_eq", "div_even"])
            k = (rng.randrange(1, block) if kind == "lt" else rng.choice([2, 4, 16, 32, 64]))
            return {"shape": "if_else", "block": block, "cond": [kind, k, 0], "a": a, "b": b}
        # Nested: the inner branch runs only inside the outer one.
        k1 = rng.choice([64, 96, 128, 160]) if block > 128 else rng.choice([32, 64, 96])
        return {"shape": "nested", "block": block, "cond": ["lt", k1, 0], "inner": ["mod_eq", rng.choice([2, 4, 64]), 0],
                "a": a, "b": b}

    def compose(self, params):
        blk, a, b = params["block"], params["a"], params["b"]
        src, pred = _condition(*params["cond"])
        shape = params["shape"]
        warps = blk // 32
        cycles = useful = 0
        if shape == "nested":
            isrc, ipred = _condition(*params["inner"])
            for wi in range(warps):
                lanes = range(32 * wi, 32 * wi + 32)
                outer = [x for x in lanes if pred(x)]
                inner = [x for x in outer if ipred(x)]
                cycles += a * bool(inner) + b * bool(len(inner) < len(outer))
                useful += a * len(inner) + b * (len(outer) - len(inner))
            body = f"if ({src}) {{\n    if ({isrc}) {{\n        path_a();   // {a} cycles\n    }} else {{\n        path_b();   // {b} cycles\n    }}\n}}"
        else:
            for wi in range(warps):
                lanes = range(32 * wi, 32 * wi + 32)
                n_in = sum(pred(x) for x in lanes)
                cycles += a * (n_in > 0) + b * (n_in < 32)
                useful += a * n_in + b * (32 - n_in)
            body = (f"if ({src}) {{\n    path_a();   // {a} cycles\n}}" if shape == "if" else
                    f"if ({src}) {{\n    path_a();   // {a} cycles\n}} else {{\n    path_b();   // {b} cycles\n}}")
        eff = useful / (32 * cycles) if cycles else 1.0
        prompt = [
            p(f"One block of {blk} threads (1D) runs the code below. Each path takes the cycles shown when a warp "
              "runs it; a warp runs every path that at least one of its lanes takes, one after the other.",
              f"thread {blk}개짜리 1D block 하나가 아래 코드를 실행합니다. warp가 각 path를 실행하면 표시된 cycle이 "
              "걸리고, warp는 lane 하나라도 타는 path를 모두 차례로 실행합니다."),
            code(body, ko={" cycles": " cycle"}),
            p("Summed over the block's warps, how many warp-cycles does the code take, and what is its SIMD "
              "efficiency (lane-cycles of useful work / (32 × warp-cycles))?",
              "block의 warp를 모두 더해 이 코드는 warp-cycle이 몇이고, SIMD efficiency (유용한 lane-cycle / (32 × "
              "warp-cycle))는 얼마입니까?"),
        ]
        fields = [integer_field("cycles", "Warp-cycles", "warp-cycle"),
                  fraction_field("efficiency", "SIMD efficiency", "SIMD efficiency", tol=0.0005)]
        answer = {"cycles": cycles, "efficiency": round(eff, 6)}
        solution = [
            p("Walk the warps: a warp whose lanes all agree pays one path; a split warp pays both (the inactive "
              "lanes are masked off, not skipped). Lanes outside an outer condition do no useful work.",
              "warp마다 따져 봅니다. lane이 모두 같은 쪽이면 path 하나의 비용만, 갈라지면 두 path 비용을 모두 "
              "냅니다(비활성 lane은 건너뛰지 않고 mask로 꺼질 뿐입니다). 바깥 조건 밖의 lane은 유용한 일을 하지 않습니다."),
            math(f"warp-cycles = {cycles},  useful lane-cycles = {useful}"),
            math(f"efficiency = {useful} / (32 × {cycles}) = {eff:.4f}"),
        ]
        return prompt, fields, answer, solution


FAMILIES = (BoundaryWarps(), BranchCost())
