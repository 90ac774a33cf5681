"""Performance-model question families on named GPUs: the roofline (arithmetic intensity, attainable
throughput, memory- or compute-bound) and latency hiding by Little's law (bytes in flight, warps needed).

Sources: the exam kinds of PMPP ch. 5 ("compute to global memory access ratio", roofline) and of GT /
CMU 18-447 homework (Little's law: concurrency = throughput × latency); seeds/000 post (1) compares GPUs by
SM count. The GPUs are those of problems.core.gpus; peak FP32 (non-tensor) throughput and DRAM bandwidth are
the vendors' datasheet figures below, printed in every prompt so a question never depends on memory.
"""
from __future__ import annotations

from problems.core.gpus import gpu as gpu_by_key

from .base import Family, Topic, choice_field, code, fraction_field, integer_field, math, number_field, p, t
from ..answers import Choice

# key -> (peak FP32 GFLOP/s, DRAM GB/s), datasheet figures (boost clock, dense FP32 without tensor cores).
PEAKS = {
    "v100": (15_700, 900),  # Tesla V100 SXM2 datasheet: 15.7 TFLOPS FP32, 900 GB/s HBM2
    "t4": (8_100, 320),  # T4 datasheet: 8.1 TFLOPS FP32, 320 GB/s
    "rtx-2080-ti": (13_450, 616),  # Turing whitepaper: 13.4 TFLOPS, 616 GB/s GDDR6
    "a100": (19_500, 1_555),  # A100 40 GB datasheet: 19.5 TFLOPS FP32, 1555 GB/s
    "rtx-3090": (35_580, 936),  # GA102 whitepaper: 35.6 TFLOPS, 936 GB/s
    "rtx-a6000": (38_700, 768),  # RTX A6000 datasheet: 38.7 TFLOPS, 768 GB/s
    "rtx-4090": (82_580, 1_008),  # Ada whitepaper: 82.6 TFLOPS, 1008 GB/s
    "l4": (30_300, 300),  # L4 datasheet: 30.3 TFLOPS FP32, 300 GB/s
    "h100-sxm": (66_900, 3_350),  # H100 SXM datasheet: 67 TFLOPS FP32, 3.35 TB/s
    "h100-pcie": (51_200, 2_000),  # H100 PCIe datasheet: 51 TFLOPS FP32, 2.0 TB/s
    "h200": (66_900, 4_800),  # H200 SXM datasheet: 67 TFLOPS FP32, 4.8 TB/s HBM3e
}


def _gpu_text(key: str) -> tuple[str, str]:
    g = gpu_by_key(key)
    f, b = PEAKS[key]
    return (f"an {g.name} ({g.sm_count} SMs; peak FP32 {f} GFLOP/s, DRAM bandwidth {b} GB/s)",
            f"{g.name} (SM {g.sm_count}개, FP32 최고 {f} GFLOP/s, DRAM bandwidth {b} GB/s)")


def bound_choices() -> list[Choice]:
    return [Choice("memory", t("Memory-bound", "memory-bound")), Choice("compute", t("Compute-bound", "compute-bound"))]


class Roofline(Family):
    id = "performance.roofline"
    topic = Topic.PERFORMANCE
    title = t("Roofline and arithmetic intensity", "roofline과 arithmetic intensity")

    def make_params(self, rng, difficulty):
        key = rng.choice(list(PEAKS))
        if difficulty == 1:
            by = rng.choice([4, 8, 12, 16, 24])
            ridge = PEAKS[key][0] / PEAKS[key][1]
            # Log-uniform within a factor of 10 of the ridge: memory- and compute-bound equally likely.
            return {"kind": "given", "gpu": key, "flops": max(1, round(ridge * by * 10 ** rng.uniform(-1, 1))),
                    "bytes": by}
        if difficulty == 2:
            f, b = PEAKS[key]
            ridge = f / b
            # Degrees on both sides of the ridge (AI = D / 4), so neither verdict is a safe guess.
            lo, hi = max(1, int(ridge * 4 * 0.25)), int(ridge * 4 * 1.8) + 2
            return {"kind": "poly", "gpu": key, "degree": rng.randrange(lo, hi)}
        return {"kind": "tile", "gpu": key}

    def compose(self, params):
        key = params["gpu"]
        peak, bw = PEAKS[key]
        en, ko = _gpu_text(key)
        ridge = peak / bw
        if params["kind"] == "tile":
            tmin = -(-peak * 4 // bw)  # smallest integer T with T/4 ≥ peak/bw
            prompt = [
                p(f"A tiled `float` matrix multiplication with T × T tiles runs on {en}. Each element a block loads from "
                  "DRAM is used for T multiply-adds, so the kernel performs 2T FLOPs per 8 bytes of A and B loaded: "
                  "its arithmetic intensity is T/4 FLOP/B.",
                  f"T × T tile을 쓰는 tiled `float` 행렬 곱을 {ko}에서 실행합니다. block이 DRAM에서 읽어 온 원소 하나는 "
                  "multiply-add T번에 쓰이므로 A와 B를 8 byte 읽을 때마다 2T FLOP을 합니다. 즉 arithmetic intensity는 "
                  "T/4 FLOP/B입니다."),
                p("What is the ridge point of this GPU's roofline (FLOP/B), and what is the smallest integer T that "
                  "makes the kernel compute-bound?",
                  "이 GPU roofline의 ridge point(FLOP/B)는 얼마이고, 커널을 compute-bound로 만드는 가장 작은 정수 T는 "
                  "얼마입니까?"),
            ]
            fields = [number_field("ridge", "Ridge point (FLOP/B)", "ridge point (FLOP/B)"),
                      integer_field("tile", "Smallest T", "가장 작은 T")]
            answer = {"ridge": round(ridge, 4), "tile": tmin}
            solution = [math(f"ridge = {peak} / {bw} = {ridge:.2f} FLOP/B"),
                        math(f"T/4 ≥ {ridge:.2f}  ⇒  T ≥ {4 * ridge:.2f}  ⇒  T = {tmin}")]
            return prompt, fields, answer, solution
        if params["kind"] == "given":
            fl, by = params["flops"], params["bytes"]
            body = [p(f"A kernel on {en} performs {fl} FLOPs for every {by} bytes it moves to or from DRAM.",
                      f"{ko}에서 실행하는 커널이 DRAM과 주고받는 {by} byte마다 {fl} FLOP을 합니다.")]
        else:
            d = params["degree"]
            fl, by = 2 * d, 8
            body = [p(f"A kernel on {en} evaluates a polynomial of degree {d} per element by Horner's rule; the "
                      "coefficients sit in registers, so each element costs one 4-byte read and one 4-byte write.",
                      f"{ko}에서 실행하는 커널이 원소마다 {d}차 다항식을 Horner 방식으로 계산합니다. 계수는 register에 있으므로 "
                      "원소 하나에 4 byte 읽기 한 번, 4 byte 쓰기 한 번이 듭니다."),
                    code(f"float v = x[i], acc = c[0];\nfor (int k = 1; k <= {d}; ++k)\n"
                         "    acc = acc * v + c[k];      // one multiply and one add\ny[i] = acc;",
                         ko={"one multiply and one add": "곱셈 한 번과 덧셈 한 번"})]
        ai = fl / by
        attain = min(peak, ai * bw)
        bound = "memory" if ai * bw < peak else "compute"
        prompt = body + [p("What is its arithmetic intensity (FLOP/B), the attainable throughput by the roofline "
                           "(GFLOP/s), and is it memory- or compute-bound?",
                           "arithmetic intensity(FLOP/B)는 얼마이고, roofline으로 본 도달 가능 throughput(GFLOP/s)은 "
                           "얼마이며, memory-bound입니까 compute-bound입니까?")]
        fields = [number_field("ai", "Arithmetic intensity (FLOP/B)", "arithmetic intensity (FLOP/B)"),
                  number_field("gflops", "Attainable GFLOP/s", "도달 가능 GFLOP/s"),
                  choice_field("bound", "Bound", "제한 요인", bound_choices())]
        answer = {"ai": round(ai, 6), "gflops": round(attain, 3), "bound": bound}
        solution = [math(f"AI = {fl} / {by} = {ai:.3f} FLOP/B"),
                    math(f"attainable = min({peak}, {ai:.3f} × {bw}) = {attain:.1f} GFLOP/s"),
                    math(f"ridge = {peak} / {bw} = {ridge:.2f} FLOP/B → {bound}-bound")]
        return prompt, fields, answer, solution


class LittlesLaw(Family):
    id = "performance.littles_law"
    topic = Topic.PERFORMANCE
    title = t("Latency hiding by Little's law", "Little's law로 보는 latency hiding")

    def make_params(self, rng, difficulty):
        key = rng.choice(list(PEAKS))
        lat = rng.choice([400, 500, 600, 700, 800])
        if difficulty == 1:
            return {"kind": "bytes", "gpu": key, "latency": lat}
        if difficulty == 2:
            return {"kind": "warps", "gpu": key, "latency": lat}
        return {"kind": "ilp", "gpu": key, "latency": lat, "ilp": rng.choice([1, 2, 4]),
                "resident": rng.choice([8, 16, 24, 32, 48, 64])}

    def compose(self, params):
        key, lat = params["gpu"], params["latency"]
        g = gpu_by_key(key)
        _, bw = PEAKS[key]
        en, ko = _gpu_text(key)
        total = bw * lat  # GB/s × ns = bytes
        per_sm = total / g.sm_count
        intro = p(f"A memory-bound kernel runs on {en}; a DRAM load takes {lat} ns. Little's law: the bytes that must "
                  "be in flight = bandwidth × latency.",
                  f"memory-bound 커널을 {ko}에서 실행합니다. DRAM 읽기 하나는 {lat} ns 걸립니다. Little's law: 동시에 "
                  "진행 중이어야 하는 byte = bandwidth × latency.")
        if params["kind"] == "bytes":
            prompt = [intro, p("How many bytes must be in flight on the whole GPU to reach full bandwidth, and how many "
                               "per SM?",
                               "최대 bandwidth에 도달하려면 GPU 전체에서, 그리고 SM 하나에서 몇 byte가 동시에 진행 중이어야 "
                               "합니까?")]
            fields = [integer_field("total", "Bytes in flight (GPU)", "진행 중 byte (GPU 전체)", unit="bytes"),
                      number_field("per_sm", "Bytes in flight per SM", "SM당 진행 중 byte")]
            answer = {"total": total, "per_sm": round(per_sm, 3)}
            solution = [math(f"{bw} GB/s × {lat} ns = {total} B"),
                        math(f"per SM: {total} / {g.sm_count} = {per_sm:.1f} B")]
            return prompt, fields, answer, solution
        per_req = 128 * (params.get("ilp", 1))
        need = -(-total // (g.sm_count * per_req))  # ⌈bytes in flight per SM / bytes per warp⌉, in integers
        if params["kind"] == "warps":
            prompt = [intro, p("Each warp issues one coalesced load of 32 × 4 B = 128 B and waits for it before issuing "
                               "the next. How many warps per SM must be resident to keep the bandwidth busy, and can "
                               f"an SM of compute capability {g.cc} ({g.capability.max_warps_per_sm} warps) hold them?",
                               "warp마다 coalesced 읽기 하나(32 × 4 B = 128 B)를 내고, 그 결과를 기다린 뒤 다음 읽기를 "
                               "냅니다. bandwidth를 다 쓰려면 SM당 몇 개의 warp가 상주해야 하고, compute capability "
                               f"{g.cc}의 SM(warp {g.capability.max_warps_per_sm}개)에 그만큼 들어갑니까?")]
            fits = need <= g.capability.max_warps_per_sm
            fields = [integer_field("warps", "Warps needed per SM", "SM당 필요한 warp 수"),
                      choice_field("fits", "Do they fit?", "들어갑니까?",
                                   [Choice("yes", t("Yes", "예")), Choice("no", t("No", "아니오"))])]
            answer = {"warps": need, "fits": "yes" if fits else "no"}
            solution = [math(f"per SM: {bw} × {lat} / {g.sm_count} = {per_sm:.1f} B in flight"),
                        math(f"warps = ⌈{per_sm:.1f} / 128⌉ = {need}  vs  {g.capability.max_warps_per_sm} slots")]
            return prompt, fields, answer, solution
        ilp, res = params["ilp"], params["resident"]
        frac = min(1.0, res * per_req / per_sm)
        prompt = [intro, p(f"Each thread keeps {ilp} independent 4-byte loads in flight (so a warp has {ilp} × 128 B "
                           f"outstanding). How many resident warps per SM does full bandwidth need, and if the launch "
                           f"keeps only {res} warps resident per SM, what fraction of the DRAM bandwidth can it reach?",
                           f"thread마다 서로 독립인 4 byte 읽기 {ilp}개를 동시에 진행합니다(warp당 {ilp} × 128 B). 최대 "
                           f"bandwidth에는 SM당 상주 warp가 몇 개 필요하고, 실행 구성이 SM당 warp {res}개만 상주시킨다면 DRAM "
                           "bandwidth의 몇 분의 몇까지 쓸 수 있습니까?")]
        fields = [integer_field("warps", "Warps needed per SM", "SM당 필요한 warp 수"),
                  fraction_field("fraction", "Fraction of bandwidth", "bandwidth 비율")]
        answer = {"warps": need, "fraction": round(frac, 6)}
        solution = [math(f"per SM: {bw} × {lat} / {g.sm_count} = {per_sm:.1f} B in flight"),
                    math(f"warps = ⌈{per_sm:.1f} / ({ilp} × 128)⌉ = {need}"),
                    math(f"fraction = min(1, {res} × {per_req} / {per_sm:.1f}) = {frac:.3f}")]
        return prompt, fields, answer, solution


FAMILIES = (Roofline(), LittlesLaw())
