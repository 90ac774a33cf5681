"""Reduction and scan question families: steps, active threads and warps, divergent warps of a shared-memory
tree reduction (interleaved vs sequential addressing), and the steps and additions of parallel scans.

Sources: seeds/000 lines 1393–1922 (the tree reduction with `__syncthreads` per step, "reduce4");
the exam kinds of PMPP ch. 10 (reduction: interleaved vs sequential addressing, control divergence per
iteration) and ch. 11 (Kogge–Stone and Brent–Kung scans: steps and work), also CS344 / ECE408 quizzes.
"""
from __future__ import annotations

from ..korean import particle
from .base import Family, Topic, code, integer_field, math, p, t

INTERLEAVED = ("for (unsigned s = 1; s < blockDim.x; s *= 2) {\n"
               "    if (t % (2 * s) == 0) sdata[t] += sdata[t + s];\n"
               "    __syncthreads();\n}")
SEQUENTIAL = ("for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"
              "    if (t < s) sdata[t] += sdata[t + s];\n"
              "    __syncthreads();\n}")


def step_counts(block: int, scheme: str, step: int) -> dict[str, int]:
    """Active threads, warps with an active lane and divergent warps at step `step` (1-based).

    Closed forms: interleaved step k uses s = 2^(k-1) and the threads t ≡ 0 (mod 2s), block/(2s) of them; while
    2s ≤ 32 every warp holds 32/(2s) of them, after that each active warp holds one, so every active warp
    diverges. Sequential step k uses s = block / 2^k and the threads t < s: ⌈s/32⌉ warps, one of them
    divergent when s < 32.
    """
    if scheme == "sequential":
        s = block >> step
        return {"threads": s, "warps": -(-s // 32), "divergent": 1 if 0 < s < 32 else 0}
    s = 1 << (step - 1)
    threads = block // (2 * s)
    if 2 * s <= 32:
        warps = block // 32
        return {"threads": threads, "warps": warps, "divergent": warps}  # one lane in 2s per warp
    return {"threads": threads, "warps": threads, "divergent": threads}  # one active lane in each active warp


class TreeSteps(Family):
    id = "reduction.tree_steps"
    topic = Topic.REDUCTION
    title = t("Reduction tree: active and divergent warps", "리덕션 트리: active warp와 분기되는 warp")

    def make_params(self, rng, difficulty):
        block = rng.choice([128, 256, 512, 1024])
        steps = block.bit_length() - 1
        if difficulty == 1:
            return {"scheme": "sequential", "block": block, "step": rng.randrange(1, steps + 1)}
        if difficulty == 2:
            return {"scheme": "interleaved", "block": block, "step": rng.randrange(1, steps + 1)}
        return {"scheme": "compare", "block": block}

    def compose(self, params):
        block = params["block"]
        steps = block.bit_length() - 1
        if params["scheme"] == "compare":
            tot = {sch: [step_counts(block, sch, k) for k in range(1, steps + 1)] for sch in ("interleaved", "sequential")}
            answer = {"interleaved": sum(c["divergent"] for c in tot["interleaved"]),
                      "sequential": sum(c["divergent"] for c in tot["sequential"])}
            prompt = [
                p(f"A block of {block} threads reduces `sdata[0..{block - 1}]` in shared memory (t = threadIdx.x). Version I "
                  "uses interleaved addressing, version S sequential addressing:",
                  f"thread {block}개짜리 block이 shared memory의 `sdata[0..{block - 1}]`{particle(str(block - 1), '를')} 리덕션합니다(t = threadIdx.x). "
                  "version I는 interleaved addressing, version S는 sequential addressing을 씁니다."),
                code("// version I\n" + INTERLEAVED + "\n// version S\n" + SEQUENTIAL),
                p("Summed over all steps of the loop, how many (warp, step) pairs are divergent (a warp with some but not "
                  "all lanes active at that step) in version I and in version S?",
                  "loop의 모든 step을 합쳐, 분기되는 (warp, step) 쌍(그 step에서 일부 lane만 active인 warp)은 version I와 "
                  "version S에서 각각 몇 개입니까?"),
            ]
            fields = [integer_field("interleaved", "Version I: divergent warp-steps", "version I: 분기되는 warp-step 수"),
                      integer_field("sequential", "Version S: divergent warp-steps", "version S: 분기되는 warp-step 수")]
            solution = [
                math("I: " + " + ".join(str(c["divergent"]) for c in tot["interleaved"]) + f" = {answer['interleaved']}"),
                math("S: " + " + ".join(str(c["divergent"]) for c in tot["sequential"]) + f" = {answer['sequential']}"),
                p("Interleaved addressing keeps every warp busy with a few scattered lanes; sequential addressing packs "
                  "the active threads into the lowest warps, so only the last five steps (s < 32) split a warp.",
                  "interleaved addressing은 모든 warp에 흩어진 소수의 lane을 남기고, sequential addressing은 active thread를 "
                  "앞쪽 warp에 모으므로 마지막 다섯 step(s < 32)에서만 warp가 갈라집니다."),
            ]
            return prompt, fields, answer, solution
        scheme, k = params["scheme"], params["step"]
        c = step_counts(block, scheme, k)
        src = INTERLEAVED if scheme == "interleaved" else SEQUENTIAL
        s = (1 << (k - 1)) if scheme == "interleaved" else block >> k
        prompt = [
            p(f"A block of {block} threads reduces `sdata` in shared memory with the loop below (t = threadIdx.x). "
              f"Consider step {k} of the loop (step 1 is the first iteration).",
              f"thread {block}개짜리 block이 아래 loop로 shared memory의 `sdata`를 리덕션합니다(t = threadIdx.x). loop의 "
              f"{k}번째 step을 봅니다(첫 반복이 step 1)."),
            code(src),
            p("How many steps does the loop run in all, and at this step how many threads add, how many warps have at "
              "least one adding lane, and how many of those warps diverge?",
              "loop는 모두 몇 step을 돌고, 이 step에서 덧셈을 하는 thread는 몇 개, 덧셈하는 lane이 하나 이상인 warp는 몇 개, "
              "그중 분기되는 warp는 몇 개입니까?"),
        ]
        fields = [integer_field("steps", "Steps in all", "전체 step 수"),
                  integer_field("threads", "Adding threads at this step", "이 step에서 덧셈하는 thread 수"),
                  integer_field("warps", "Warps with an adding lane", "덧셈하는 lane이 있는 warp 수"),
                  integer_field("divergent", "Divergent warps", "분기되는 warp 수")]
        answer = {"steps": steps, **c}
        cond = f"t % {2 * s} == 0" if scheme == "interleaved" else f"t < {s}"
        solution = [
            math(f"steps = log2({block}) = {steps};  step {k}: s = {s}, condition {cond}"),
            math(f"threads = {c['threads']},  warps = {c['warps']},  divergent = {c['divergent']}"),
            p("With interleaved addressing the adding threads are 2s apart: while 2s ≤ 32 every warp has some, and "
              "each of them diverges. With sequential addressing they are t < s, contiguous: a warp splits only when "
              "s < 32.",
              "interleaved addressing에서는 덧셈하는 thread가 2s 간격이어서 2s ≤ 32인 동안 모든 warp에 조금씩 있고 모두 "
              "분기됩니다. sequential addressing에서는 t < s로 연속되어 s < 32일 때만 warp가 갈라집니다."),
        ]
        return prompt, fields, answer, solution


def kogge_stone(n: int) -> tuple[int, int]:
    steps, adds, d = 0, 0, 1
    while d < n:
        steps, adds, d = steps + 1, adds + (n - d), d * 2
    return steps, adds


def brent_kung(n: int) -> tuple[int, int]:
    m = n.bit_length() - 1
    return 2 * m - 1, 2 * n - 2 - m


# The Korean words of the scans' code comments.
SCAN_COMMENTS = {"(reduction tree)": "(리덕션 트리)", "(distribution tree)": "(분배 트리)",
                 "// one addition": "// 덧셈 한 번"}


class ScanWork(Family):
    id = "reduction.scan_work"
    topic = Topic.REDUCTION
    title = t("Parallel scan: steps and additions", "parallel scan: step 수와 덧셈 수")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            return {"kind": "kogge_stone", "n": 1 << rng.randrange(4, 11)}
        if difficulty == 2:
            return {"kind": "brent_kung", "n": 1 << rng.randrange(4, 11)}
        return {"kind": "ragged", "n": rng.randrange(20, 1024)}

    def compose(self, params):
        kind, n = params["kind"], params["n"]
        if kind == "brent_kung":
            steps, adds = brent_kung(n)
            src = ("// up-sweep (reduction tree)\nfor (int stride = 1; stride < n; stride *= 2) {\n"
                   "    __syncthreads();\n    int i = (threadIdx.x + 1) * 2 * stride - 1;\n"
                   "    if (i < n) X[i] += X[i - stride];\n}\n"
                   "// down-sweep (distribution tree)\nfor (int stride = n / 4; stride > 0; stride /= 2) {\n"
                   "    __syncthreads();\n    int i = (threadIdx.x + 1) * 2 * stride - 1;\n"
                   "    if (i + stride < n) X[i + stride] += X[i];\n}")
            name = "Brent–Kung"
            sol = [math(f"steps = 2·log2 n − 1 = 2·{n.bit_length() - 1} − 1 = {steps}"),
                   math(f"up-sweep adds n − 1 = {n - 1};  down-sweep adds n − 1 − log2 n = {n - 1 - (n.bit_length() - 1)}"),
                   math(f"additions = 2n − 2 − log2 n = {adds}")]
        else:
            steps, adds = kogge_stone(n)
            src = ("for (unsigned stride = 1; stride < n; stride *= 2) {\n    __syncthreads();\n"
                   "    float v = (threadIdx.x >= stride) ? X[threadIdx.x - stride] : 0;\n    __syncthreads();\n"
                   "    if (threadIdx.x >= stride) X[threadIdx.x] += v;   // one addition\n}")
            name = "Kogge–Stone"
            terms = " + ".join(f"({n} − {1 << d})" for d in range(steps))
            sol = [math(f"steps = ⌈log2 {n}⌉ = {steps}"),
                   math(f"additions = Σ (n − stride) = {terms} = {adds}")]
        prompt = [
            p(f"One block of n = {n} threads computes an inclusive scan of `X[0..{n - 1}]` in shared memory with the "
              f"{name} algorithm below (one element per thread).",
              f"thread n = {n}개짜리 block 하나가 아래 {name} algorithm으로 shared memory의 `X[0..{n - 1}]`에 대한 "
              "inclusive scan을 계산합니다(thread당 원소 하나)."),
            code(src, ko={k: v for k, v in SCAN_COMMENTS.items() if k in src}),
            p("How many steps (iterations of the loops) does it take, how many additions does it perform in all, and "
              "how many more additions is that than a sequential scan (n − 1)?",
              "step(loop 반복) 수는 몇이고, 덧셈은 모두 몇 번이며, 순차 scan(n − 1번)보다 덧셈이 몇 번 더 많습니까?"),
        ]
        fields = [integer_field("steps", "Steps", "step 수"), integer_field("adds", "Additions", "덧셈 수"),
                  integer_field("extra", "Extra additions vs sequential", "순차 scan 대비 추가 덧셈")]
        answer = {"steps": steps, "adds": adds, "extra": adds - (n - 1)}
        sol.append(math(f"extra = {adds} − {n - 1} = {adds - (n - 1)}"))
        return prompt, fields, answer, sol


FAMILIES = (TreeSteps(), ScanWork())
