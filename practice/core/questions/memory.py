"""Memory-access question families: 32-byte sectors per warp request (coalescing), shared-memory bank
conflicts and padding, and the arithmetic of tiled matrix multiplication.

Sources: CONTENT.md "Beyond" (coalescing: sectors per warp for stride s; bank conflicts: degree
gcd(k, 32), the padded [32][33] transpose); the exam kinds of PMPP ch. 5–6 (tiling: global loads per
element, shared bytes, phases; coalescing of row vs column access) and UIUC ECE408 / GT homework
(AoS vs SoA). The hardware rules used: global loads are served in 32-byte sectors (cc 6.0+; the
Programming Guide's "device memory accesses"); shared memory has 32 banks of 4 bytes, and a warp's
request takes as many passes as the largest number of DISTINCT 4-byte words it asks of one bank
(the same word read by several lanes is a broadcast).
"""
from __future__ import annotations

from math import gcd

from ..korean import particle
from .base import Family, Topic, code, fraction_field, integer_field, math, p, t

TYPES = {"char": 1, "short": 2, "float": 4, "double": 8, "float4": 16}


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def sectors(byte_ranges: list[tuple[int, int]]) -> int:
    """Distinct 32-byte sectors touched by (start, size) byte ranges."""
    return len({s for a, n in byte_ranges for s in range(a // 32, (a + n - 1) // 32 + 1)})


class Coalescing(Family):
    id = "memory.coalescing"
    topic = Topic.MEMORY
    title = t("Coalescing: sectors per warp request", "Coalescing: warp 요청당 sector 수")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            return {"kind": "stride", "type": "float", "stride": rng.choice([1, 2, 3, 4, 5, 8, 16, 32, 64]),
                    "offset": 0}
        if difficulty == 2:
            ty = rng.choice(list(TYPES))
            return {"kind": "offset", "type": ty, "stride": 1, "offset": rng.choice([0, 1, 2, 3, 5, 7, 8, 13, 16, 32])}
        if rng.random() < 0.5:
            return {"kind": "aos", "fields": rng.choice([2, 3, 4, 5, 6, 8, 12]), "field": 0}
        return {"kind": "column", "width": rng.choice([32, 64, 100, 256, 1000, 1024, 4096])}

    def compose(self, params):
        if params["kind"] in ("stride", "offset"):
            return self._stride(params)
        if params["kind"] == "aos":
            return self._aos(params)
        return self._column(params)

    def _stride(self, params):
        ty, s, off = params["type"], params["stride"], params["offset"]
        size = TYPES[ty]
        n = sectors([((off + s * lane) * size, size) for lane in range(32)])
        useful = 32 * size
        eff = useful / (32 * n)
        expr = f"a[{s} * i + {off}]" if s != 1 and off else (f"a[{s} * i]" if s != 1 else
                                                             (f"a[i + {off}]" if off else "a[i]"))
        prompt = [
            p(f"`a` is a `{ty}` array ({size} B per element) whose start is 256-byte aligned. Thread i of a warp "
              f"(i = 0..31, the first warp of the grid) reads `{expr}`. Global memory serves a warp's request in "
              "32-byte sectors.",
              f"`a`는 시작 주소가 256 byte 정렬된 `{ty}` 배열(원소당 {size} B)입니다. grid의 첫 warp에서 thread i "
              f"(i = 0..31)가 `{expr}` 값을 읽습니다. global memory는 warp의 요청을 32 byte sector 단위로 처리합니다."),
            code(f"int i = blockIdx.x * blockDim.x + threadIdx.x;\n{ty} v = {expr};"),
            p("How many sectors does the warp's request touch, and what fraction of the fetched bytes is used?",
              "이 warp 요청이 건드리는 sector는 몇 개이고, 가져온 byte 중 실제로 쓰는 비율은 얼마입니까?"),
        ]
        fields = [integer_field("sectors", "Sectors", "sector 수"),
                  fraction_field("efficiency", "Bytes used / bytes fetched", "사용 byte / 가져온 byte", tol=0.0005)]
        answer = {"sectors": n, "efficiency": round(eff, 6)}
        first, last = off * size, (off + 31 * s) * size + size - 1
        solution = [
            math(f"byte addresses: {first} … {last} in steps of {s * size}"),
            p("Count the distinct 32-byte sectors (address // 32) the 32 lanes touch"
              + (f"; with a stride of {s * size} B ≥ 32 B every lane needs its own sector." if s * size >= 32 else "."),
              "32개 lane이 건드리는 서로 다른 32 byte sector(address // 32)를 셉니다"
              + (f". stride가 {s * size} B ≥ 32 B이면 lane마다 sector가 하나씩 필요합니다." if s * size >= 32 else ".")),
            math(f"sectors = {n},  efficiency = {useful} / ({n} × 32) = {eff:.4f}"),
        ]
        return prompt, fields, answer, solution

    def _aos(self, params):
        k = params["fields"]
        members = ", ".join("xyzwabcdefgh"[j] for j in range(k))
        aos = sectors([((lane * k) * 4, 4) for lane in range(32)])
        soa = sectors([(lane * 4, 4) for lane in range(32)])
        prompt = [
            p(f"Particles have {k} `float` members. Layout A stores an array of structs "
              f"(`struct P {{ float {members}; }}; P p[n];`), layout B a struct of arrays (one `float` array per "
              "member). Both arrays start 256-byte aligned. Each thread i of the first warp reads member `x` of "
              "particle i.",
              f"입자 하나에 `float` 멤버가 {k}개 있습니다. 배치 A는 array of structs(`struct P {{ float {members}; }}; "
              "P p[n];`), 배치 B는 struct of arrays(멤버마다 `float` 배열)입니다. 두 배열 모두 256 byte 정렬입니다. "
              "첫 warp의 thread i가 입자 i의 멤버 `x`를 읽습니다."),
            code("float ax = p[i].x;      // layout A (AoS)\nfloat bx = soa.x[i];    // layout B (SoA)",
                 ko={"// layout A": "// 배치 A", "// layout B": "// 배치 B"}),
            p("How many 32-byte sectors does the warp's read touch in layout A and in layout B?",
              "warp의 읽기가 건드리는 32 byte sector는 배치 A와 배치 B에서 각각 몇 개입니까?"),
        ]
        fields = [integer_field("aos", "Layout A (AoS): sectors", "배치 A (AoS): sector 수"),
                  integer_field("soa", "Layout B (SoA): sectors", "배치 B (SoA): sector 수")]
        answer = {"aos": aos, "soa": soa}
        solution = [
            math(f"AoS: lane i reads byte {4 * k}·i; stride {4 * k} B → sectors = {aos}"),
            math(f"SoA: lane i reads byte 4·i; 128 contiguous bytes → sectors = {soa}"),
        ]
        return prompt, fields, answer, solution

    def _column(self, params):
        w = params["width"]
        row = sectors([(lane * 4, 4) for lane in range(32)])
        col = sectors([(lane * w * 4, 4) for lane in range(32)])
        prompt = [
            p(f"`A` is a row-major `float` matrix with {w} columns, 256-byte aligned. In the first warp, lane l "
              "(l = 0..31) reads one element in each of two kernels (here row = 0 and col = 0):",
              f"`A`는 열이 {w}개인 row-major `float` 행렬이고 256 byte 정렬입니다. 첫 warp에서 lane l (l = 0..31)이 두 "
              "커널에서 각각 원소 하나를 읽습니다(여기서 row = 0, col = 0)."),
            code(f"float r = A[row * {w} + l];   // kernel R: lanes walk along a row\n"
                 f"float c = A[l * {w} + col];   // kernel C: lanes walk down a column",
                 ko={"kernel R: lanes walk along a row": "커널 R: lane들이 한 행을 따라감",
                     "kernel C: lanes walk down a column": "커널 C: lane들이 한 열을 따라 내려감"}),
            p("How many 32-byte sectors does the warp's read touch in kernel R and in kernel C?",
              "warp의 읽기가 건드리는 32 byte sector는 커널 R과 커널 C에서 각각 몇 개입니까?"),
        ]
        fields = [integer_field("row", "Kernel R: sectors", "커널 R: sector 수"),
                  integer_field("col", "Kernel C: sectors", "커널 C: sector 수")]
        answer = {"row": row, "col": col}
        solution = [
            math(f"R: 32 consecutive floats = 128 B from an aligned start → {row} sectors"),
            math(f"C: lane addresses {w} × 4 = {4 * w} B apart → {col} sectors"),
        ]
        return prompt, fields, answer, solution


def bank_degree(words: list[int]) -> int:
    """Passes a warp's 32-bit shared-memory request takes: the most distinct words asked of one bank."""
    per_bank: dict[int, set[int]] = {}
    for wd in words:
        per_bank.setdefault(wd % 32, set()).add(wd)
    return max(len(v) for v in per_bank.values())


class BankConflicts(Family):
    id = "memory.bank_conflicts"
    topic = Topic.MEMORY
    title = t("Shared-memory bank conflicts", "shared memory bank conflict")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            return {"kind": "stride", "k": rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 17, 31, 32, 33, 64])}
        if difficulty == 2:
            return {"kind": "column", "width": rng.choice([32, 33, 34, 36, 40, 48, 64, 65]), "c": rng.randrange(32)}
        bx = rng.choice([8, 16, 32])
        return {"kind": "block2d", "bx": bx, "width": rng.choice([bx, bx + 1, 2 * bx, 32, 33]),
                "transposed": rng.random() < 0.7}

    def compose(self, params):
        kind = params["kind"]
        if kind == "stride":
            k = params["k"]
            deg = bank_degree([k * lane for lane in range(32)])
            src = f"__shared__ float s[32 * {k}];\nfloat v = s[threadIdx.x * {k}];"
            what_en, what_ko = f"Lane l of a warp reads `s[{k} * l]`.", f"warp의 lane l이 `s[{k} * l]`을 읽습니다."
            sol = [math(f"word = {k}·l,  bank = {k}·l mod 32;  degree = gcd({k}, 32) = {gcd(k, 32)}")]
        elif kind == "column":
            w, c = params["width"], params["c"]
            deg = bank_degree([lane * w + c for lane in range(32)])
            src = f"__shared__ float tile[32][{w}];\nfloat v = tile[threadIdx.x][{c}];   // blockDim = (32, 1)"
            what_en = f"Lane l reads `tile[l][{c}]` (a column of the tile)."
            what_ko = f"lane l이 `tile[l][{c}]`(tile의 한 열)을 읽습니다."
            sol = [math(f"word = {w}·l + {c},  bank = ({w}·l + {c}) mod 32;  degree = gcd({w}, 32) = {gcd(w, 32)}")]
        else:
            bx, w, tr = params["bx"], params["width"], params["transposed"]
            lanes = [(l % bx, l // bx) for l in range(32)]  # (threadIdx.x, threadIdx.y) of warp 0
            words = [tx * w + ty for tx, ty in lanes] if tr else [ty * w + tx for tx, ty in lanes]
            deg = bank_degree(words)
            acc = "tile[threadIdx.x][threadIdx.y]" if tr else "tile[threadIdx.y][threadIdx.x]"
            src = f"__shared__ float tile[{bx}][{w}];\nfloat v = {acc};   // blockDim = ({bx}, {bx})"
            what_en = (f"Blocks are {bx} × {bx} threads, so warp 0 holds threadIdx.y = 0..{32 // bx - 1} with "
                       f"threadIdx.x = 0..{bx - 1} each; it reads `{acc}`." if bx < 32 else
                       f"Blocks are {bx} × {bx} threads, so warp 0 is threadIdx.y = 0, threadIdx.x = 0..31; it reads "
                       f"`{acc}`.")
            what_ko = (f"block이 {bx} × {bx} thread이므로 warp 0에는 threadIdx.y = 0..{32 // bx - 1}, 각각 threadIdx.x = "
                       f"0..{bx - 1}인 thread가 있습니다. 이 warp가 `{acc}`{particle(acc, '를')} 읽습니다." if bx < 32 else
                       f"block이 {bx} × {bx} thread이므로 warp 0은 threadIdx.y = 0, threadIdx.x = 0..31입니다. 이 warp가 "
                       f"`{acc}`{particle(acc, '를')} 읽습니다.")
            formula = f"threadIdx.x·{w} + threadIdx.y" if tr else f"threadIdx.y·{w} + threadIdx.x"
            sol = [math(f"word = {formula},  bank = word mod 32")]
        prompt = [
            p("Shared memory has 32 banks, 4 bytes wide; a warp's request takes as many passes as the largest "
              "number of distinct 4-byte words it asks of one bank (lanes reading the same word share it). "
              + what_en,
              "shared memory는 4 byte 폭의 bank 32개로 되어 있고, warp 요청은 한 bank에 요구하는 서로 다른 4 byte "
              "word의 최대 개수만큼 pass가 걸립니다(같은 word를 읽는 lane은 함께 받습니다). " + what_ko),
            code(src),
            p("What is the conflict degree (passes per request; 1 = conflict-free)?",
              "conflict degree(요청당 pass 수, 1이면 conflict 없음)는 얼마입니까?"),
        ]
        fields = [integer_field("degree", "Conflict degree (n-way)", "conflict degree (n-way)")]
        answer = {"degree": deg}
        words_en = "1 word" if deg == 1 else f"{deg} distinct words"
        passes_en = "1 pass" if deg == 1 else f"{deg} passes"
        sol.append(p(f"The busiest bank is asked for {words_en}, so the request takes {passes_en}."
                     + (" Padding the row by one word spreads a column over all 32 banks." if deg > 1 else ""),
                     f"가장 많이 요구되는 bank에 서로 다른 word {deg}개가 몰리므로 요청은 pass {deg}번이 걸립니다."
                     + (" 행마다 word 하나를 패딩으로 덧붙이면 한 열이 32개 bank에 고루 퍼집니다." if deg > 1 else "")))
        return prompt, [*fields], answer, sol


class Tiling(Family):
    id = "memory.tiling"
    topic = Topic.MEMORY
    title = t("Tiled matrix multiplication: loads, phases, shared bytes",
              "tiled 행렬 곱: 읽기 횟수, phase 수, shared byte")

    def make_params(self, rng, difficulty):
        tile = rng.choice([8, 16, 32])
        if difficulty == 1:
            return {"kind": "square", "tile": tile, "n": tile * rng.randrange(4, 65)}
        if difficulty == 2:
            return {"kind": "ragged", "tile": tile, "m": rng.randrange(50, 2000), "k": rng.randrange(50, 2000),
                    "n": rng.randrange(50, 2000)}
        return {"kind": "coarse", "tile": rng.choice([16, 32]), "c": rng.choice([2, 4, 8]),
                "n": 256 * rng.randrange(1, 17)}

    def compose(self, params):
        T = params["tile"]
        if params["kind"] == "square":
            n = params["n"]
            phases, smem, loads = n // T, 2 * T * T * 4, 2 * n ** 3 // T
            prompt = [
                p(f"C = A·B with square N × N `float` matrices, N = {n}, is computed by the classic tiled kernel with "
                  f"{T} × {T} tiles: each block computes one {T} × {T} tile of C; in each phase its threads load one "
                  f"{T} × {T} tile of A and one of B into shared memory, synchronize, and accumulate.",
                  f"N = {n}인 N × N `float` 행렬의 곱 C = A·B를 {T} × {T} tile의 전형적인 tiled 커널로 계산합니다. "
                  f"block 하나가 C의 {T} × {T} tile 하나를 계산하고, phase마다 thread들이 A와 B의 {T} × {T} tile을 하나씩 "
                  "shared memory로 읽어 온 뒤 동기화하고 누적합니다."),
                p("How many phases does each block run, how many bytes of shared memory does a block use, and how "
                  "many `float` loads from global memory does the whole kernel make?",
                  "block마다 phase는 몇 번이고, block이 쓰는 shared memory는 몇 byte이며, 커널 전체의 global memory "
                  "`float` 읽기는 몇 번입니까?"),
            ]
            fields = [integer_field("phases", "Phases per block", "block당 phase 수"),
                      integer_field("smem", "Shared memory per block", "block당 shared memory", unit="bytes"),
                      integer_field("loads", "Global float loads (total)", "global float 읽기 수 (전체)")]
            answer = {"phases": phases, "smem": smem, "loads": loads}
            solution = [math(f"phases = N / T = {n} / {T} = {phases}"),
                        math(f"shared = 2 × {T}² × 4 B = {smem} B"),
                        math(f"loads = (N/T)² blocks × phases × 2T² = 2N³ / T = {loads}  (naive: 2N³ = {2 * n ** 3}, "
                             f"{T}× more)")]
            return prompt, fields, answer, solution
        if params["kind"] == "ragged":
            m, k, n = params["m"], params["k"], params["n"]
            bm, bn, phases = _ceil_div(m, T), _ceil_div(n, T), _ceil_div(k, T)
            loads = bn * m * k + bm * k * n
            prompt = [
                p(f"C (M × N) = A (M × K) · B (K × N) with M = {m}, K = {k}, N = {n} (`float`) is computed by a tiled "
                  f"kernel with {T} × {T} tiles and a {_ceil_div(n, T)} × {_ceil_div(m, T)} grid. Tile loads are guarded: "
                  "a thread whose element lies outside A or B stores 0 to shared memory instead of loading.",
                  f"M = {m}, K = {k}, N = {n}인 C (M × N) = A (M × K) · B (K × N) (`float`)를 {T} × {T} tile, "
                  f"{_ceil_div(n, T)} × {_ceil_div(m, T)} grid의 tiled 커널로 계산합니다. tile 읽기에는 guard가 있어서 "
                  "A나 B 밖의 원소를 맡은 thread는 읽지 않고 shared memory에 0을 씁니다."),
                code("for (int ph = 0; ph < (K + T - 1) / T; ++ph) {\n"
                     "    As[ty][tx] = (row < M && ph*T + tx < K) ? A[row*K + ph*T + tx] : 0.0f;\n"
                     "    Bs[ty][tx] = (ph*T + ty < K && col < N) ? B[(ph*T + ty)*N + col] : 0.0f;\n"
                     "    __syncthreads();\n    ...\n    __syncthreads();\n}"),
                p("How many blocks are launched, how many phases does each run, and how many `float` loads from "
                  "global memory does the kernel make in total?",
                  "실행되는 block은 몇 개이고, block마다 phase는 몇 번이며, 커널 전체의 global memory `float` 읽기는 "
                  "몇 번입니까?"),
            ]
            fields = [integer_field("blocks", "Blocks", "block 수"),
                      integer_field("phases", "Phases per block", "block당 phase 수"),
                      integer_field("loads", "Global float loads (total)", "global float 읽기 수 (전체)")]
            answer = {"blocks": bm * bn, "phases": phases, "loads": loads}
            solution = [math(f"blocks = ⌈{m}/{T}⌉ × ⌈{n}/{T}⌉ = {bm} × {bn} = {bm * bn},  phases = ⌈{k}/{T}⌉ = {phases}"),
                        p("Every element of A is loaded once by each block column that needs its row, i.e. ⌈N/T⌉ "
                          "times; every element of B once per block row, ⌈M/T⌉ times. Guarded (padding) positions "
                          "load nothing.",
                          "A의 원소는 그 행이 필요한 block 열마다 한 번, 즉 ⌈N/T⌉번 읽히고, B의 원소는 block 행마다 한 번, "
                          "⌈M/T⌉번 읽힙니다. guard에 걸린(패딩) 자리는 읽지 않습니다."),
                        math(f"loads = ⌈N/T⌉·M·K + ⌈M/T⌉·K·N = {bn}·{m}·{k} + {bm}·{k}·{n} = {loads}")]
            return prompt, fields, answer, solution
        c, n = params["c"], params["n"]
        smem = (T * T + c * T * T) * 4
        loads = n ** 3 * (1 + c) // (c * T)
        prompt = [
            p(f"A tiled N × N `float` matmul (N = {n}, {T} × {T} tiles) is coarsened by a factor of {c}: each block "
              f"computes {c} horizontally adjacent {T} × {T} tiles of C. In each phase it loads one {T} × {T} tile of A "
              f"(shared by the {c} outputs) and {c} tiles of B, all kept in shared memory at once.",
              f"N = {n}, {T} × {T} tile의 tiled N × N `float` 행렬 곱에 factor {c}의 thread coarsening을 적용합니다. block 하나가 "
              f"가로로 이웃한 C의 {T} × {T} tile {c}개를 계산합니다. phase마다 A의 {T} × {T} tile 하나({c}개 출력이 공유)와 "
              f"B의 tile {c}개를 읽어 오고 모두 동시에 shared memory에 둡니다."),
            p("How many bytes of shared memory does a block use, and how many `float` loads from global memory does "
              "the kernel make in total?",
              "block이 쓰는 shared memory는 몇 byte이고, 커널 전체의 global memory `float` 읽기는 몇 번입니까?"),
        ]
        fields = [integer_field("smem", "Shared memory per block", "block당 shared memory", unit="bytes"),
                  integer_field("loads", "Global float loads (total)", "global float 읽기 수 (전체)")]
        answer = {"smem": smem, "loads": loads}
        solution = [math(f"shared = ({T}² + {c}·{T}²) × 4 B = {smem} B"),
                    math(f"blocks = (N/T)·(N/({c}T)),  phases = N/T,  per phase (1 + {c})·T² loads"),
                    math(f"loads = N³(1 + c)/(cT) = {n}³ × {1 + c} / ({c} × {T}) = {loads}  (uncoarsened: 2N³/T = "
                         f"{2 * n ** 3 // T})")]
        return prompt, fields, answer, solution


FAMILIES = (Coalescing(), BankConflicts(), Tiling())
