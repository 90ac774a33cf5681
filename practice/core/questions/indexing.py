"""Thread-indexing question families: global indices, the inverse mapping, warps and lanes, grid sizes,
grid-stride loops and a wrong index formula. Answers are computed (the wrong formula by evaluating
every candidate over a whole launch).

Source: seeds/000 lines 429–518 and 1469–1554 (1-D/2-D/3-D global indices, grid sizes, grid-stride
loops; erratum: line 477's "+ ROW" is the column x) and seeds/001 line 1242 (the 2-D index formula
that collides, the wrong-formula family's seed)."""
from __future__ import annotations

from typing import Callable

from ..answers import Choice
from ..korean import josa, particle
from .base import Family, Topic, choice_field, code, integer_field, items, letters, math, p, t, writemap

BLOCKS_2D = [(16, 16), (32, 8), (32, 16), (8, 8), (16, 8), (32, 4)]
BLOCKS_3D = [(8, 8, 4), (16, 8, 2), (32, 4, 2), (8, 4, 4)]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class GlobalIndex(Family):
    id = "indexing.global_index"
    topic = Topic.INDEXING
    title = t("Global index of a thread", "thread의 global index")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            block = rng.choice([64, 128, 256, 512])
            return {"dims": 1, "block": [block], "block_idx": [rng.randrange(0, 400)], "thread": [rng.randrange(block)]}
        if difficulty == 2:
            bx, by = rng.choice(BLOCKS_2D)
            w, h = rng.choice([(1920, 1080), (640, 480), (1000, 700), (4096, 2160), (333, 250)])
            x, y = rng.randrange(w), rng.randrange(h)
            return {"dims": 2, "size": [w, h], "block": [bx, by], "block_idx": [x // bx, y // by],
                    "thread": [x % bx, y % by]}
        bx, by, bz = rng.choice(BLOCKS_3D)
        w, h, d = rng.choice([(128, 128, 64), (100, 60, 30), (256, 64, 16), (70, 50, 20)])
        x, y, z = rng.randrange(w), rng.randrange(h), rng.randrange(d)
        return {"dims": 3, "size": [w, h, d], "block": [bx, by, bz], "block_idx": [x // bx, y // by, z // bz],
                "thread": [x % bx, y % by, z % bz]}

    def compose(self, params):
        dims, block, bi, th = params["dims"], params["block"], params["block_idx"], params["thread"]
        coords = [bi[k] * block[k] + th[k] for k in range(dims)]
        axes = "xyz"[:dims]
        given_en = ", ".join(f"blockIdx.{a} = {bi[k]}" for k, a in enumerate(axes)) + "; " + ", ".join(
            f"threadIdx.{a} = {th[k]}" for k, a in enumerate(axes))
        shape = " × ".join(str(b) for b in block)
        if dims == 1:
            prompt = [
                p(f"A 1D kernel is launched with {block[0]} threads per block and computes its index as below. Which "
                  f"element does the thread with {given_en} handle?",
                  f"1D 커널을 block당 thread {block[0]}개로 실행하고 아래처럼 index를 계산합니다. {given_en}인 "
                  "thread는 몇 번째 원소를 처리합니까?"),
                code("int i = blockIdx.x * blockDim.x + threadIdx.x;\nif (i < n) y[i] = a * x[i] + y[i];"),
            ]
            fields = [integer_field("idx", "i", "i")]
            answer = {"idx": coords[0]}
            solution = [math(f"i = {bi[0]} × {block[0]} + {th[0]} = {coords[0]}")]
            return prompt, fields, answer, solution
        size = params["size"]
        if dims == 2:
            w, h = size
            src = ("int x = blockIdx.x * blockDim.x + threadIdx.x;   // column\n"
                   "int y = blockIdx.y * blockDim.y + threadIdx.y;   // row\n"
                   "if (x < width && y < height)\n"
                   "    out[y * width + x] = 255 - in[y * width + x];")
            idx = coords[1] * w + coords[0]
            prompt = [
                p(f"An image of width {w} and height {h} pixels is stored row-major. A kernel is launched with "
                  f"{shape} blocks. For the thread with {given_en}: what are x, y and the 1D index it accesses?",
                  f"너비 {w}, 높이 {h} pixel 이미지가 row-major로 저장되어 있습니다. 커널을 {shape} block으로 "
                  f"실행합니다. {given_en}인 thread의 x, y와 접근하는 1D index는?"),
                code(src, ko={"// column": "// 열(column)", "// row": "// 행(row)"}),
            ]
            answer = {"x": coords[0], "y": coords[1], "idx": idx}
            solution = [math(f"x = {bi[0]} × {block[0]} + {th[0]} = {coords[0]}"),
                        math(f"y = {bi[1]} × {block[1]} + {th[1]} = {coords[1]}"),
                        math(f"idx = y × width + x = {coords[1]} × {w} + {coords[0]} = {idx}")]
        else:
            w, h, d = size
            src = ("int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                   "int z = blockIdx.z * blockDim.z + threadIdx.z;\n"
                   "if (x < nx && y < ny && z < nz)\n"
                   "    v[(z * ny + y) * nx + x] *= 2.0f;")
            idx = (coords[2] * h + coords[1]) * w + coords[0]
            prompt = [
                p(f"A volume of nx = {w}, ny = {h}, nz = {d} is stored x-fastest. A kernel is launched with {shape} "
                  f"blocks. For the thread with {given_en}: what are x, y, z and the 1D index it accesses?",
                  f"nx = {w}, ny = {h}, nz = {d}인 volume이 x가 가장 빠르게 변하도록 저장되어 있습니다. 커널을 "
                  f"{shape} block으로 실행합니다. {given_en}인 thread의 x, y, z와 1D index는?"),
                code(src),
            ]
            answer = {"x": coords[0], "y": coords[1], "z": coords[2], "idx": idx}
            solution = [math(f"{a} = {bi[k]} × {block[k]} + {th[k]} = {coords[k]}") for k, a in enumerate(axes)]
            solution.append(math(f"idx = (z × ny + y) × nx + x = ({coords[2]} × {h} + {coords[1]}) × {w} + "
                                 f"{coords[0]} = {idx}"))
        fields = [integer_field(k, k, k) for k in answer]
        return prompt, fields, answer, solution


class InverseIndex(Family):
    id = "indexing.inverse"
    topic = Topic.INDEXING
    title = t("Which thread handles this element?", "이 원소를 처리하는 thread는?")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            block = rng.choice([64, 128, 256, 512, 1024])
            return {"dims": 1, "block": [block], "idx": rng.randrange(0, 200_000)}
        bx, by = rng.choice(BLOCKS_2D)
        w, h = rng.choice([(1920, 1080), (640, 480), (1000, 700), (333, 250)])
        return {"dims": 2, "block": [bx, by], "size": [w, h], "idx": rng.randrange(w * h),
                "linear": difficulty == 3}

    def compose(self, params):
        block, idx = params["block"], params["idx"]
        if params["dims"] == 1:
            b, th = divmod(idx, block[0])
            prompt = [
                p(f"A 1D kernel uses `i = blockIdx.x * blockDim.x + threadIdx.x` with {block[0]} threads per block. "
                  f"Which block and thread handle element i = {idx}?",
                  f"1D 커널이 block당 thread {block[0]}개로 `i = blockIdx.x * blockDim.x + threadIdx.x`를 씁니다. "
                  f"원소 i = {josa(idx, '를')} 처리하는 block과 thread는?"),
            ]
            answer = {"block_x": b, "thread_x": th}
            fields = [integer_field("block_x", "blockIdx.x", "blockIdx.x"),
                      integer_field("thread_x", "threadIdx.x", "threadIdx.x")]
            solution = [math(f"blockIdx.x = ⌊{idx} / {block[0]}⌋ = {b}"),
                        math(f"threadIdx.x = {idx} mod {block[0]} = {th}"),
                        _inverse_picture_1d(block[0], idx)]
            return prompt, fields, answer, solution
        (bx, by), (w, h) = block, params["size"]
        y, x = divmod(idx, w)
        answer = {"block_x": x // bx, "block_y": y // by, "thread_x": x % bx, "thread_y": y % by}
        prompt = [
            p(f"An image of width {w} and height {h} is stored row-major and processed by a 2D kernel with "
              f"{bx} × {by} blocks (x = blockIdx.x * blockDim.x + threadIdx.x, y likewise). Which block and thread "
              f"handle the pixel at 1D index {idx}?",
              f"너비 {w}, 높이 {h}인 row-major 이미지를 {bx} × {by} block의 2D 커널로 처리합니다 "
              f"(x = blockIdx.x * blockDim.x + threadIdx.x, y도 같은 방식). 1D index {idx}의 pixel을 처리하는 block과 "
              "thread는?"),
        ]
        fields = [integer_field(k, lbl, lbl) for k, lbl in (("block_x", "blockIdx.x"), ("block_y", "blockIdx.y"),
                                                           ("thread_x", "threadIdx.x"), ("thread_y", "threadIdx.y"))]
        solution = [
            math(f"y = ⌊{idx} / {w}⌋ = {y},  x = {idx} mod {w} = {x}"),
            math(f"blockIdx = (⌊{x} / {bx}⌋, ⌊{y} / {by}⌋) = ({x // bx}, {y // by})"),
            math(f"threadIdx = ({x} mod {bx}, {y} mod {by}) = ({x % bx}, {y % by})"),
            _inverse_picture_2d((bx, by), (w, h), x, y),
        ]
        return prompt, fields, answer, solution


PICTURE_SIDE = 48  # elements per side of the window an indexing solution draws (at most)


def _window(centre: int, size: int, block: int) -> tuple[int, int]:
    """(start, length) of a window of at most PICTURE_SIDE elements, three blocks wide when they fit,
    around `centre` within [0, size)."""
    length = min(size, PICTURE_SIDE, 3 * block)
    start = min(max(0, centre - length // 2), size - length)
    return start, length


def _inverse_picture_1d(block: int, idx: int):
    """The write map around element idx: which thread of which block writes each nearby element."""
    start = max(0, idx - idx % 32 - 32)
    n = 96
    return writemap([_ceil_div(start + n, block), 1, 1], [block, 1, 1], [n], [start], idx - start)


def _inverse_picture_2d(block: tuple[int, int], size: tuple[int, int], x: int, y: int):
    """The write map of the image around pixel (x, y), rows by y and columns by x."""
    (bx, by), (w, h) = block, size
    x0, cols = _window(x, w, bx)
    y0, rows = _window(y, h, by)
    return writemap([_ceil_div(w, bx), _ceil_div(h, by), 1], [bx, by, 1], [rows, cols], [y0, x0],
                    (y - y0) * cols + (x - x0))


class WarpAndLane(Family):
    id = "indexing.warp_lane"
    topic = Topic.INDEXING
    title = t("Warp and lane of a thread", "thread의 warp와 lane")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            if rng.random() < 0.25:
                return {"block": [32, 16], "thread": [3, 2]}  # the seed's example
            block = [rng.choice([16, 32, 64, 8]), rng.choice([4, 8, 16])]
        elif difficulty == 2:
            block = [rng.choice([12, 24, 20, 48, 10]), rng.choice([4, 8, 16, 5])]
        else:
            block = list(rng.choice([(8, 8, 4), (12, 6, 4), (10, 10, 5), (16, 4, 8)]))
        return {"block": block, "thread": [rng.randrange(b) for b in block]}

    def compose(self, params):
        block, th = params["block"], params["thread"]
        if len(block) == 2:
            linear = th[1] * block[0] + th[0]
            formula = f"{th[1]} × {block[0]} + {th[0]} = {linear}"
            expr = "threadIdx.y * blockDim.x + threadIdx.x"
        else:
            linear = (th[2] * block[1] + th[1]) * block[0] + th[0]
            formula = f"({th[2]} × {block[1]} + {th[1]}) × {block[0]} + {th[0]} = {linear}"
            expr = "(threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x"
        shape = " × ".join(str(b) for b in block)
        tid = ", ".join(str(v) for v in th)
        prompt = [p(f"A block has {shape} threads. Threads are numbered x first ({expr}) and grouped into warps of 32 "
                    f"consecutive threads. In which warp of the block, and at which lane, is the thread with "
                    f"threadIdx = ({tid})?",
                    f"block은 {shape} thread입니다. thread는 x가 먼저 증가하는 순서({expr})로 번호가 매겨지고 연속된 "
                    f"32개씩 warp로 묶입니다. threadIdx = ({tid})인 thread는 block의 몇 번째 warp의 몇 번째 lane입니까?")]
        fields = [integer_field("warp", "Warp (within the block)", "warp 번호 (block 안)"),
                  integer_field("lane", "Lane", "lane")]
        answer = {"warp": linear // 32, "lane": linear % 32}
        solution = [math(f"linear id = {formula}"),
                    math(f"warp = ⌊{linear} / 32⌋ = {linear // 32},  lane = {linear} mod 32 = {linear % 32}")]
        return prompt, fields, answer, solution


class GridDimensions(Family):
    id = "indexing.grid_dims"
    topic = Topic.INDEXING
    title = t("Grid size and idle threads", "grid 크기와 노는 thread")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            return {"n": rng.randrange(1000, 1_000_000), "block": [rng.choice([128, 256, 512])]}
        bx, by = rng.choice(BLOCKS_2D)
        w = rng.randrange(100, 4100) if difficulty == 3 else rng.choice([640, 1000, 1280, 1920, 1023])
        h = rng.randrange(100, 2200) if difficulty == 3 else rng.choice([480, 720, 1080, 700, 333])
        return {"size": [w, h], "block": [bx, by]}

    def compose(self, params):
        block = params["block"]
        if len(block) == 1:
            n, tb = params["n"], block[0]
            g = _ceil_div(n, tb)
            prompt = [p(f"A 1D kernel processes n = {n} elements with {tb} threads per block and `if (i < n)` as its "
                        "guard. How many blocks does the launch need, and how many launched threads do nothing?",
                        f"1D 커널이 n = {n}개 원소를 block당 thread {tb}개와 `if (i < n)` guard로 처리합니다. 필요한 "
                        "block 수와, 실행되었지만 아무 일도 하지 않는 thread 수는?"),
                      code(f"int blocks = (n + {tb} - 1) / {tb};\nkernel<<<blocks, {tb}>>>(x, y, n);")]
            fields = [integer_field("blocks", "Blocks (gridDim.x)", "block 수 (gridDim.x)"),
                      integer_field("idle", "Idle threads", "노는 thread 수")]
            answer = {"blocks": g, "idle": g * tb - n}
            solution = [math(f"⌈{n} / {tb}⌉ = {g}"), math(f"{g} × {tb} − {n} = {g * tb - n}")]
            return prompt, fields, answer, solution
        (w, h), (bx, by) = params["size"], block
        gx, gy = _ceil_div(w, bx), _ceil_div(h, by)
        idle = gx * gy * bx * by - w * h
        prompt = [p(f"A 2D kernel processes a {w} × {h} image (width × height) with {bx} × {by} blocks, guarded by "
                    "`if (x < width && y < height)`. What are gridDim.x and gridDim.y, and how many launched threads "
                    "fall outside the image?",
                    f"2D 커널이 {w} × {h} 이미지 (너비 × 높이)를 {bx} × {by} block으로 처리하고 "
                    "`if (x < width && y < height)` guard를 둡니다. gridDim.x, gridDim.y와 이미지 밖에 떨어지는 thread 수는?"),
                  code(f"dim3 block({bx}, {by});\ndim3 grid((width + {bx} - 1) / {bx}, (height + {by} - 1) / {by});\n"
                       "kernel<<<grid, block>>>(img, width, height);")]
        fields = [integer_field("grid_x", "gridDim.x", "gridDim.x"), integer_field("grid_y", "gridDim.y", "gridDim.y"),
                  integer_field("idle", "Idle threads", "노는 thread 수")]
        answer = {"grid_x": gx, "grid_y": gy, "idle": idle}
        solution = [math(f"gridDim.x = ⌈{w} / {bx}⌉ = {gx},  gridDim.y = ⌈{h} / {by}⌉ = {gy}"),
                    math(f"{gx} × {gy} × {bx} × {by} − {w} × {h} = {gx * gy * bx * by} − {w * h} = {idle}")]
        return prompt, fields, answer, solution


class GridStride(Family):
    id = "indexing.grid_stride"
    topic = Topic.INDEXING
    title = t("Grid-stride loop", "grid-stride loop")

    def make_params(self, rng, difficulty):
        if difficulty == 1 and rng.random() < 0.3:
            grid, block = 80, 256  # the seed's example: stride 20480
        else:
            grid, block = rng.choice([20, 40, 80, 108, 132, 264]), rng.choice([128, 256, 512])
        stride = grid * block
        n = rng.randrange(stride // 2, stride * (6 if difficulty > 1 else 4))
        gid = rng.randrange(0, stride)
        return {"grid": grid, "block": block, "n": n, "block_idx": gid // block, "thread": gid % block}

    def compose(self, params):
        grid, block, n = params["grid"], params["block"], params["n"]
        b, th = params["block_idx"], params["thread"]
        gid, stride = b * block + th, grid * block
        count = len(range(gid, n, stride))
        prompt = [p(f"A kernel with a grid-stride loop is launched as `<<<{grid}, {block}>>>` for n = {n}. What is the "
                    f"stride, and how many elements does the thread with blockIdx.x = {b}, threadIdx.x = {th} process?",
                    f"grid-stride loop 커널을 n = {n}에 대해 `<<<{grid}, {block}>>>`{particle(str(block), '로')} 실행합니다. stride는 얼마이고, "
                    f"blockIdx.x = {b}, threadIdx.x = {th}인 thread는 원소를 몇 개 처리합니까?"),
                  code("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
                       "    y[i] = a * x[i] + y[i];")]
        fields = [integer_field("stride", "Stride", "stride"), integer_field("count", "Elements", "처리하는 원소 수")]
        last = gid + (count - 1) * stride if count else None
        solution = [math(f"stride = {block} × {grid} = {stride}"),
                    math(f"i₀ = {b} × {block} + {th} = {gid}"),
                    (math(f"count = ⌈({n} − {gid}) / {stride}⌉ = {count}  (i = {gid}, …, {last})") if count else
                     p(f"i₀ = {gid} ≥ n, so the loop body never runs: 0 elements.",
                       f"i₀ = {gid} ≥ n이므로 loop가 한 번도 돌지 않습니다: 0개."))]
        return prompt, fields, {"stride": stride, "count": count}, solution


# Candidate formulas for WrongFormula: (code, evaluator(x, y, tx, ty, bx, by, bdx, bdy, width)).
Formula = tuple[str, Callable[..., int]]
RIGHT: list[Formula] = [
    ("int idx = y * width + x;", lambda x, y, tx, ty, bx, by, dx, dy, w: y * w + x),
    ("int idx = x + width * y;", lambda x, y, tx, ty, bx, by, dx, dy, w: x + w * y),
    ("int idx = (blockIdx.y * blockDim.y + threadIdx.y) * width + blockIdx.x * blockDim.x + threadIdx.x;",
     lambda x, y, tx, ty, bx, by, dx, dy, w: (by * dy + ty) * w + bx * dx + tx),
    ("int idx = width * blockIdx.y * blockDim.y + width * threadIdx.y + x;",
     lambda x, y, tx, ty, bx, by, dx, dy, w: w * by * dy + w * ty + x),
]
WRONG: list[Formula] = [
    ("int idx = y * width + y;", lambda x, y, tx, ty, bx, by, dx, dy, w: y * w + y),  # the seed's "+ ROW"
    ("int idx = x * width + y;", lambda x, y, tx, ty, bx, by, dx, dy, w: x * w + y),
    ("int idx = y * blockDim.x + x;", lambda x, y, tx, ty, bx, by, dx, dy, w: y * dx + x),
    ("int idx = y * (gridDim.x * blockDim.x) + x;", None),  # evaluated with the real gridDim below
    ("int idx = (blockIdx.y * blockDim.y + threadIdx.x) * width + x;",
     lambda x, y, tx, ty, bx, by, dx, dy, w: (by * dy + tx) * w + x),
]


def formula_is_right(code_line: str, width: int, height: int, block: tuple[int, int]) -> bool:
    """Evaluate a candidate over every thread of the launch; right iff it equals y*width + x wherever the
    guard lets a thread through."""
    dx, dy = block
    gx, gy = _ceil_div(width, dx), _ceil_div(height, dy)
    fn = dict(RIGHT + WRONG)[code_line]
    if fn is None:
        fn = lambda x, y, tx, ty, bx, by, ddx, ddy, w: y * (gx * ddx) + x  # noqa: E731
    for by in range(gy):
        for bx in range(gx):
            for ty in range(dy):
                for tx in range(dx):
                    x, y = bx * dx + tx, by * dy + ty
                    if x < width and y < height and fn(x, y, tx, ty, bx, by, dx, dy, width) != y * width + x:
                        return False
    return True


class WrongFormula(Family):
    id = "indexing.wrong_formula"
    topic = Topic.INDEXING
    title = t("Spot the wrong index formula", "잘못된 index 공식 찾기")

    def make_params(self, rng, difficulty):
        w, h = rng.choice([(37, 23), (50, 30), (100, 20), (45, 45)])
        block = list(rng.choice([(8, 8), (16, 4), (16, 16), (32, 8)]))
        # A formula that is only wrong when the grid does not tile the image (the seed's gridDim mistake).
        wrong_pool = [c for c, _ in WRONG if not formula_is_right(c, w, h, tuple(block))]
        lines = rng.sample([c for c, _ in RIGHT], 3) + [rng.choice(wrong_pool)]
        rng.shuffle(lines)
        return {"size": [w, h], "block": block, "lines": lines}

    def compose(self, params):
        (w, h), block, lines = params["size"], tuple(params["block"]), params["lines"]
        keys = letters(len(lines))
        verdicts = {k: formula_is_right(c, w, h, block) for k, c in zip(keys, lines)}
        wrong = [k for k, ok in verdicts.items() if not ok]
        prompt = [
            p(f"A {w} × {h} image (width × height) is stored row-major and processed with {block[0]} × {block[1]} "
              "blocks and a grid of ⌈width / blockDim.x⌉ × ⌈height / blockDim.y⌉ blocks. Every thread computes",
              f"{w} × {h} 이미지 (너비 × 높이)가 row-major로 저장되어 있고, {block[0]} × {block[1]} block과 "
              "⌈width / blockDim.x⌉ × ⌈height / blockDim.y⌉ block의 grid로 처리합니다. 모든 thread는 다음을 계산합니다"),
            code("int x = blockIdx.x * blockDim.x + threadIdx.x;\nint y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "if (x >= width || y >= height) return;\n// idx = ?\nout[idx] = f(in[idx]);"),
            p("Which line computes a wrong index (it misses or repeats pixels)?",
              "다음 중 잘못된 index를 계산하는 줄은 (pixel을 빠뜨리거나 중복)?"),
        ]
        choices = [Choice(k, {"en": c, "ko": c}, code=True) for k, c in zip(keys, lines)]
        fields = [choice_field("wrong", "Wrong line", "잘못된 줄", choices)]
        en, ko = [], []
        for k, c in zip(keys, lines):
            en.append(f"({k}) `{c}` — " + ("equals y * width + x for every thread" if verdicts[k]
                                            else "differs from y * width + x for some threads"))
            ko.append(f"({k}) `{c}` — " + ("모든 thread에서 y * width + x와 같음" if verdicts[k]
                                            else "일부 thread에서 y * width + x와 다름"))
        solution = [p("Evaluate each line for every thread of the launch and compare with y * width + x:",
                      "grid의 모든 thread에 대해 각 줄을 계산해 y * width + x와 비교합니다:"),
                    items(en, ko),
                    p("The row length is `width`, a kernel parameter; `gridDim.x * blockDim.x` equals it only when "
                      "the grid tiles the image exactly.",
                      "한 행의 길이는 커널 parameter인 `width`입니다. `gridDim.x * blockDim.x`는 grid가 이미지를 "
                      "정확히 덮을 때만 같습니다.")]
        return prompt, fields, {"wrong": wrong[0]}, solution


FAMILIES = [GlobalIndex(), InverseIndex(), WarpAndLane(), GridDimensions(), GridStride(), WrongFormula()]
