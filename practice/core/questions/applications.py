"""The applications of seeds 001–003 as question families: MATLAB imresize's coordinate mapping, nearest ties and
bicubic weights; softmax, log-softmax and cross-entropy in float32; NCHW/NHWC channel indices for BatchNorm
statistics.

Sources (CONTENT.md, with its errata followed): seeds/001 lines 326–328 (pixel centres
x = w·(x' + 0.5)/W − 0.5), lines 136–137 (Keys cubic a = −0.5; the seed prints the second piece with wrong
signs: the right one is −0.5|v|³ + 2.5|v|² − 4|v| + 2), MATLAB's nearest ties round up; seeds/002 (its softmax
subtracts the global max: rows far below it underflow to 0/0 = NaN; the stable form subtracts the row max;
log_softmax = z − m − log Σ e^{z−m}); seeds/003 (CrossEntropy with ignore_index −100, mean over valid rows;
BatchNorm's channel `c = (i / HW) % C` for NCHW and one atomic per element onto C addresses).
"""
from __future__ import annotations

import math as _m
from fractions import Fraction

from ..korean import josa
from .base import Family, Topic, code, integer_field, math, number_field, p, t


def keys_cubic(v: float) -> float:
    """MATLAB's cubic kernel (Keys, a = −0.5), with CONTENT.md's correct second piece."""
    a = abs(v)
    if a <= 1:
        return 1.5 * a ** 3 - 2.5 * a ** 2 + 1
    if a <= 2:
        return -0.5 * a ** 3 + 2.5 * a ** 2 - 4 * a + 2
    return 0.0


class ResizeMap(Family):
    id = "indexing.resize_map"
    topic = Topic.INDEXING
    title = t("imresize: source coordinates and taps", "imresize: 원본 좌표와 tap")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            return self._centre(rng)
        if difficulty == 2:
            s = rng.choice([2, 3, 4, 6])
            W = rng.randint(3, 9)
            return {"kind": "nearest", "w": W * s, "W": W, "x": rng.randrange(W)}
        w = rng.choice([4, 6, 8, 10])
        W = w * rng.choice([2, 4])
        while True:
            x = rng.randrange(W)
            src = Fraction(w * (2 * x + 1), 2 * W) - Fraction(1, 2)
            if src.denominator != 1:
                return {"kind": "weights", "w": w, "W": W, "x": x}

    @staticmethod
    def _centre(rng):
        w = rng.choice([4, 5, 6, 8, 10, 12, 16])
        W = w * rng.choice([2, 3, 4]) + rng.choice([0, 0, 1, 2])
        return {"kind": "centre", "w": w, "W": W, "x": rng.randrange(W)}

    def compose(self, params):
        w, W, x = params["w"], params["W"], params["x"]
        src = Fraction(w * (2 * x + 1), 2 * W) - Fraction(1, 2)
        mapping = p(f"MATLAB's `imresize` maps a row of w = {w} input pixels to W = {W} output pixels by pixel centres "
                    "(0-based indices here):",
                    f"MATLAB의 `imresize`는 입력 pixel w = {w}개인 행을 출력 pixel W = {W}개로 pixel 중심 기준으로 "
                    "대응시킵니다(여기서 index는 0부터).")
        formula = math("x = w · (x' + 0.5) / W − 0.5")
        if params["kind"] == "centre":
            left = _m.floor(src) - 1
            prompt = [mapping, formula,
                      p(f"For output pixel x' = {x}: what is the source coordinate x, and what is the index of the "
                        "leftmost of the four bicubic taps (⌊x⌋ − 1; indices below 0 are mirrored later)?",
                        f"출력 pixel x' = {x}의 원본 좌표 x는 얼마이고, bicubic tap 네 개 중 가장 왼쪽 tap의 index(⌊x⌋ − 1; "
                        "0보다 작은 index는 나중에 mirror)는 무엇입니까?")]
            fields = [number_field("x", "Source coordinate x", "원본 좌표 x", rel_tol=0.001),
                      integer_field("left", "Leftmost tap", "가장 왼쪽 tap")]
            solution = [math(f"x = {w} · ({x} + 0.5) / {W} − 0.5 = {float(src):.6g}"),
                        math(f"taps ⌊x⌋ − 1 … ⌊x⌋ + 2 = {left} … {left + 3}")]
            return prompt, fields, {"x": round(float(src), 9), "left": left}, solution
        if params["kind"] == "nearest":
            matlab = min(max(_m.floor(src + Fraction(1, 2)), 0), w - 1)
            differ = sum(1 for xo in range(W) if _half_even(Fraction(w * (2 * xo + 1), 2 * W) - Fraction(1, 2))
                         != _m.floor(Fraction(w * (2 * xo + 1), 2 * W)))
            prompt = [mapping, formula,
                      p(f"With nearest-neighbour interpolation (shrinking by {w // W}), MATLAB rounds exact .5 ties up. "
                        f"Which input index does output pixel x' = {x} copy, and for how many of the {W} output pixels "
                        "would NumPy's `np.round` (ties to even) pick a different input pixel?",
                        f"nearest-neighbour 보간({w // W}배 축소)에서 MATLAB은 정확히 .5인 경우를 올림합니다. 출력 pixel "
                        f"x' = {x}에는 몇 번 입력 index가 복사되고, 출력 pixel {W}개 중 NumPy의 `np.round`(짝수 쪽으로 반올림)가 "
                        "다른 입력 pixel을 고르는 것은 몇 개입니까?")]
            fields = [integer_field("index", "Input index (MATLAB)", "입력 index (MATLAB)"),
                      integer_field("differ", "Pixels where np.round differs", "np.round가 다른 pixel 수")]
            solution = [math(f"x = {w} · ({x} + 0.5) / {W} − 0.5 = {float(src):.6g}  →  ⌊x + 0.5⌋ = {matlab}"),
                        p(f"Shrinking by s puts x at s·x' + (s − 1)/2: a .5 tie for every pixel when s is even, never "
                          f"when s is odd. Ties to even goes down where ⌊x⌋ is even: {differ} of {W} differ.",
                          f"s배 축소에서 x = s·x' + (s − 1)/2이므로 s가 짝수면 모든 pixel이 .5에 걸리고 홀수면 전혀 걸리지 "
                          f"않습니다. 짝수 쪽 반올림은 ⌊x⌋가 짝수일 때 내림하므로 {W}개 중 {differ}개가 다릅니다.")]
            return prompt, fields, {"index": matlab, "differ": differ}, solution
        f = src - _m.floor(src)
        w_left, w_near = keys_cubic(float(1 + f)), keys_cubic(float(f))
        prompt = [mapping, formula,
                  p("Enlarging uses MATLAB's bicubic kernel (Keys, a = −0.5) on the four taps ⌊x⌋ − 1 … ⌊x⌋ + 2:",
                    "확대에는 tap 네 개 ⌊x⌋ − 1 … ⌊x⌋ + 2에 MATLAB의 bicubic kernel(Keys, a = −0.5)을 씁니다."),
                  math("k(v) = 1.5|v|³ − 2.5|v|² + 1 (|v| ≤ 1);  −0.5|v|³ + 2.5|v|² − 4|v| + 2 (1 < |v| ≤ 2);  0 otherwise"),
                  p(f"For output pixel x' = {x}, what are the weights of tap ⌊x⌋ − 1 and of tap ⌊x⌋?",
                    f"출력 pixel x' = {x}에서 tap ⌊x⌋ − 1과 tap ⌊x⌋의 weight는 각각 얼마입니까?")]
        fields = [number_field("w_left", "Weight of tap ⌊x⌋ − 1", "tap ⌊x⌋ − 1의 weight", rel_tol=0.005),
                  number_field("w_near", "Weight of tap ⌊x⌋", "tap ⌊x⌋의 weight", rel_tol=0.005)]
        solution = [math(f"x = {float(src):.6g},  ⌊x⌋ = {_m.floor(src)},  distances {float(1 + f):g}, {float(f):g}, "
                         f"{float(1 - f):g}, {float(2 - f):g}"),
                    math(f"k({float(1 + f):g}) = {w_left:.6g},  k({float(f):g}) = {w_near:.6g}"),
                    p("seeds/001 prints the second piece with wrong signs (the kernel jumps at |v| = 1); the four weights "
                      "of the right kernel sum to 1.",
                      "seeds/001은 두 번째 조각의 부호를 틀리게 적었습니다(|v| = 1에서 커널이 끊김). 올바른 커널의 weight 네 "
                      "개는 합이 1입니다.")]
        return prompt, fields, {"w_left": round(w_left, 9), "w_near": round(w_near, 9)}, solution


def _half_even(x: Fraction) -> int:
    return round(x)  # Python's round of a Fraction is ties-to-even, like np.round


F32_EXP_ZERO = -104.0  # float32 exp(x) rounds to 0 below about -103.97


class Softmax(Family):
    id = "reduction.softmax"
    topic = Topic.REDUCTION
    title = t("Softmax, log-softmax and cross-entropy in float32", "float32의 softmax, log-softmax, cross-entropy")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            rows, top = rng.randint(3, 6), rng.randint(500, 1000)
            z = []
            for _ in range(rows):
                gap = rng.choice([rng.randint(0, 60), rng.randint(70, 95), rng.randint(130, 600)])
                row = [top - gap]
                while len(row) < 4:
                    v = top - gap - rng.randint(0, 40)
                    if not -110 < v - top < -98:  # keep clear of float32 exp's underflow edge (−103.97)
                        row.append(v)
                rng.shuffle(row)
                z.append(row)
            z[rng.randrange(rows)][rng.randrange(4)] = top
            return {"kind": "global_max", "z": z}
        if difficulty == 2:
            return {"kind": "log_softmax", "z": [rng.randint(-1000, 1000) if rng.random() < 0.3 else rng.randint(-4, 4)
                                                 for _ in range(4)], "j": rng.randrange(4)}
        rows, C = rng.randint(3, 5), rng.choice([3, 4])
        z = [[rng.randint(-3, 3) for _ in range(C)] for _ in range(rows)]
        tg = [rng.randrange(C) if rng.random() < 0.7 else -100 for _ in range(rows)]
        if all(x == -100 for x in tg):
            tg[0] = 0
        return {"kind": "cross_entropy", "z": z, "target": tg}

    def compose(self, params):
        z = params["z"]
        if params["kind"] == "global_max":
            M = max(max(r) for r in z)
            nan_rows = sum(1 for r in z if max(r) - M < F32_EXP_ZERO)
            zeros = sum(1 for r in z for v in r if v - M < F32_EXP_ZERO)
            rows = "\n".join("{" + ", ".join(map(str, r)) + "}" for r in z)
            prompt = [
                p(f"seeds/002's softmax subtracts one max over the whole batch (`np.max(z)` with no axis) before `exp`, in "
                  f"float32. The batch has {len(z)} rows of 4 logits:",
                  f"seeds/002의 softmax는 `exp` 전에 batch 전체의 max 하나(axis 없는 `np.max(z)`)를 float32로 뺍니다. batch는 "
                  f"logit 4개짜리 행 {len(z)}개입니다."),
                code(rows + "\n// y = exp(z - max(z)) / sum(exp(z - max(z)), per row)", ko={", per row)": ", 행마다)"}),
                p("float32 `exp(x)` rounds to 0 for x below about −103.97. How many of the exp values are exactly 0, and how "
                  "many rows come out as NaN (0/0)?",
                  "float32 `exp(x)`는 x가 약 −103.97보다 작으면 0이 됩니다. exp 값 중 정확히 0인 것은 몇 개이고, NaN(0/0)이 "
                  "되는 행은 몇 개입니까?"),
            ]
            fields = [integer_field("zeros", "exp values equal to 0", "0이 되는 exp 값 수"),
                      integer_field("nan_rows", "NaN rows", "NaN 행 수")]
            solution = [math(f"global max = {M};  row max − {M}: " + ", ".join(str(max(r) - M) for r in z)),
                        math(f"logits more than 103.97 below {M}: {zeros}"),
                        p(f"A row whose own max is more than ~104 below {M} has every exp equal to 0: {nan_rows} rows. "
                          "With the row's own max every row has an exp(0) = 1 term, so none is NaN (CONTENT.md's erratum).",
                          f"자기 max가 {M}보다 약 104 넘게 작은 행은 exp가 모두 0입니다: {nan_rows}개 행. 행마다 자기 max를 빼면 "
                          "exp(0) = 1인 항이 있으므로 NaN인 행은 없습니다(CONTENT.md의 정정).")]
            return prompt, fields, {"zeros": zeros, "nan_rows": nan_rows}, solution
        if params["kind"] == "log_softmax":
            j = params["j"]
            m = max(z)
            lse = m + _m.log(sum(_m.exp(v - m) for v in z))
            val = z[j] - lse
            prompt = [
                p("A row of logits: z = {" + ", ".join(map(str, z)) + "}. Computed stably,",
                  "logit 행 z = {" + ", ".join(map(str, z)) + "}에 대해 안정적으로 계산하면"),
                math("m = max z;  log Σ e^z = m + log Σ e^(z − m);  log_softmax(z)_j = z_j − m − log Σ e^(z − m)"),
                p(f"What are log Σ e^z and log_softmax(z)_{j} (index from 0)? (Naive `log(softmax)` in float32 would "
                  "overflow or give −inf here.)",
                  f"log Σ e^z와 log_softmax(z)_{j}(index는 0부터)는 얼마입니까? (float32의 단순한 `log(softmax)`는 여기서 "
                  "오버플로가 나거나 −inf가 됩니다.)"),
            ]
            fields = [number_field("lse", "log Σ e^z", "log Σ e^z", rel_tol=1e-4),
                      number_field("value", f"log_softmax(z)_{j}", f"log_softmax(z)_{j}", rel_tol=1e-4)]
            solution = [math(f"m = {m};  Σ e^(z − m) = {sum(_m.exp(v - m) for v in z):.6g};  log Σ e^z = {lse:.6g}"),
                        math(f"log_softmax_{j} = {z[j]} − {lse:.6g} = {val:.6g}")]
            return prompt, fields, {"lse": round(lse, 9), "value": round(val, 9)}, solution
        tg = params["target"]
        losses = []
        for r, y in zip(z, tg):
            if y == -100:
                continue
            m = max(r)
            losses.append(m + _m.log(sum(_m.exp(v - m) for v in r)) - r[y])
        mean = sum(losses) / len(losses)
        prompt = [
            p(f"A fused cross-entropy kernel (seeds/003) handles {len(z)} rows of {len(z[0])} logits; rows with target "
              "−100 (`ignore_index`) are skipped, and the loss is the mean over the other rows:",
              f"fused cross-entropy kernel(seeds/003)이 logit {len(z[0])}개짜리 행 {len(z)}개를 처리합니다. target이 "
              "−100(`ignore_index`)인 행은 건너뛰고, loss는 나머지 행의 평균입니다."),
            code("\n".join("z = {" + ", ".join(map(str, r)) + "}   target = " + str(y) for r, y in zip(z, tg))),
            math("loss_row = log Σ e^(z − m) + m − z[target]"),
            p("How many rows count, and what is the mean loss?", "계산에 들어가는 행은 몇 개이고, 평균 loss는 얼마입니까?"),
        ]
        fields = [integer_field("valid", "Rows counted", "들어가는 행 수"),
                  number_field("loss", "Mean loss", "평균 loss", rel_tol=1e-3)]
        solution = [math("per-row losses: " + ", ".join(f"{x:.4f}" for x in losses)),
                    math(f"mean = {sum(losses):.4f} / {len(losses)} = {mean:.6g}"),
                    p("Dividing by all rows, ignored ones included, is the classic mistake.",
                      "무시한 행까지 포함한 전체 행 수로 나누는 것이 흔한 실수입니다.")]
        return prompt, fields, {"valid": len(losses), "loss": round(mean, 9)}, solution


class ChannelIndex(Family):
    id = "indexing.channel_index"
    topic = Topic.INDEXING
    title = t("Channel of a flat index: NCHW, NHWC and BatchNorm atomics",
              "flat index의 channel: NCHW, NHWC와 BatchNorm atomic")

    def make_params(self, rng, difficulty):
        N, C = rng.randint(2, 32), rng.choice([3, 16, 32, 64, 96, 128])
        H = W = rng.choice([7, 14, 28, 32, 56])
        total = N * C * H * W
        if difficulty < 3:
            return {"kind": "nchw" if difficulty == 1 else "nhwc", "shape": [N, C, H, W], "i": rng.randrange(total)}
        T = rng.choice([64, 128, 256])
        H = W = rng.choice([16, 32, 64])
        return {"kind": "bn_atomics", "shape": [N, C, H, W], "block": T}

    def compose(self, params):
        N, C, H, W = params["shape"]
        HW = H * W
        if params["kind"] == "bn_atomics":
            T = params["block"]
            naive = N * HW
            pre = N * HW // T
            prompt = [
                p(f"BatchNorm statistics over an NCHW tensor of shape ({N}, {C}, {H}, {W}) accumulate `sum[c]` and "
                  f"`sumsq[c]` per channel. Version A: one thread per element, `atomicAdd` onto its channel. Version B: "
                  f"each {T}-thread block covers {T} consecutive elements (H·W = {HW} is a multiple of {T}, so a block "
                  "stays in one channel), reduces them in shared memory, and thread 0 adds the block's two partials.",
                  f"shape ({N}, {C}, {H}, {W})인 NCHW tensor의 BatchNorm 통계를 channel마다 `sum[c]`, `sumsq[c]`에 "
                  "누적합니다. version A는 원소당 thread 하나가 자기 channel에 `atomicAdd`합니다. version B는 thread "
                  f"{T}개짜리 block이 연속된 원소 {T}개를 맡고(H·W = {josa(HW, '가')} {T}의 배수라 block이 한 channel 안에 있음) shared "
                  "memory에서 리덕션한 뒤 thread 0이 block의 부분합 두 개를 더합니다."),
                code("int c = (i / (H * W)) % C;\natomicAdd(&sum[c], x[i]);\natomicAdd(&sumsq[c], x[i] * x[i]);   // version A"),
                p("How many atomics reach the one address `sum[0]` in version A and in version B?",
                  "주소 하나 `sum[0]`에 도달하는 atomic은 version A와 version B에서 각각 몇 번입니까?"),
            ]
            fields = [integer_field("naive", "Version A: atomics on sum[0]", "version A: sum[0]의 atomic 수"),
                      integer_field("blocked", "Version B: atomics on sum[0]", "version B: sum[0]의 atomic 수")]
            solution = [math(f"channel 0 holds N · H · W = {N} × {HW} = {naive} elements → A: {naive}"),
                        math(f"B: {naive} / {T} = {pre} blocks in channel 0 → {pre}")]
            return prompt, fields, {"naive": naive, "blocked": pre}, solution
        i = params["i"]
        if params["kind"] == "nchw":
            n, rest = divmod(i, C * HW)
            c, hw = divmod(rest, HW)
            prompt = [p(f"A tensor of shape (N, C, H, W) = ({N}, {C}, {H}, {W}) is stored in NCHW order (W fastest). For "
                        f"flat index i = {i}, what are n, c, and the pixel offset h·W + w?",
                        f"shape (N, C, H, W) = ({N}, {C}, {H}, {W})인 tensor가 NCHW 순서(W가 가장 빠름)로 저장되어 있습니다. flat "
                        f"index i = {i}의 n, c와 pixel offset h·W + w는 무엇입니까?"),
                      code("int c = (i / (H * W)) % C;   // seeds/003\nint n = i / (C * H * W);\nint hw = i % (H * W);")]
            solution = [math(f"n = ⌊{i} / {C * HW}⌋ = {n};  c = ⌊{i} / {HW}⌋ mod {C} = {c};  h·W + w = {i} mod {HW} = {hw}")]
        else:
            n, rest = divmod(i, HW * C)
            hw, c = divmod(rest, C)
            prompt = [p(f"A tensor with N, C, H, W = {N}, {C}, {H}, {W} is stored in NHWC order (C fastest, as channels-last "
                        f"PyTorch tensors are). For flat index i = {i}, what are n, c, and the pixel offset h·W + w? "
                        "(The NCHW formula `(i / (H * W)) % C` is wrong here.)",
                        f"N, C, H, W = {N}, {C}, {H}, {W}인 tensor가 NHWC 순서(C가 가장 빠름, PyTorch channels-last와 같음)로 "
                        f"저장되어 있습니다. flat index i = {i}의 n, c와 pixel offset h·W + w는 무엇입니까? (NCHW 식 "
                        "`(i / (H * W)) % C`는 여기서 틀립니다.)")]
            solution = [math(f"c = {i} mod {C} = {c};  h·W + w = ⌊{i} / {C}⌋ mod {HW} = {hw};  n = ⌊{i} / {HW * C}⌋ = {n}")]
        fields = [integer_field("n", "n", "n"), integer_field("c", "c", "c"), integer_field("hw", "h·W + w", "h·W + w")]
        return prompt, fields, {"n": n, "c": c, "hw": hw}, solution


FAMILIES: tuple[Family, ...] = (ResizeMap(), Softmax(), ChannelIndex())
