"""Warp-level primitives: what `__ballot_sync` and `__activemask` return (and which one a branch may trust), and
warp-shuffle reductions traced lane by lane.

Sources: seeds/000 lines 2035–2576 (independent thread scheduling, `__activemask()`), with CONTENT.md's erratum:
`__activemask()` inside a branch is NOT guaranteed to include every lane that took it — take the mask with
`__ballot_sync` before the branch. Shuffle reductions: the exam kind of PMPP ch. 10 / CS344 quizzes ("what does
lane L hold after step k of `__shfl_down_sync`") and issue 15's warp-shuffle block reduction.
"""
from __future__ import annotations

from ..answers import Choice
from .base import Family, Topic, choice_field, code, integer_field, letters, math, p, t

FULL = 0xFFFFFFFF


def _pred(kind: str, k: int, r: int) -> tuple[str, list[bool]]:
    """A lane predicate as C source and its value for lanes 0..31."""
    src = {"mod": f"lane % {k} == {r}", "lt": f"lane < {k}", "ge": f"lane >= {k}", "stripe": f"(lane / {k}) % 2 == 1",
           "bits": f"(lane & {k}) != 0"}[kind]
    fn = {"mod": lambda ln: ln % k == r, "lt": lambda ln: ln < k, "ge": lambda ln: ln >= k,
          "stripe": lambda ln: (ln // k) % 2 == 1, "bits": lambda ln: (ln & k) != 0}[kind]
    return src, [fn(ln) for ln in range(32)]


def _mask(bits: list[bool]) -> int:
    return sum(1 << i for i, b in enumerate(bits) if b)


class Ballot(Family):
    id = "synchronization.ballot"
    topic = Topic.SYNCHRONIZATION
    title = t("__ballot_sync and __activemask", "__ballot_sync와 __activemask")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            kind = rng.choice(["mod", "lt", "ge", "stripe", "bits"])
            k = {"mod": rng.choice([2, 3, 4, 5, 6, 8]), "lt": rng.randint(1, 31), "ge": rng.randint(1, 31),
                 "stripe": rng.choice([1, 2, 4, 8]), "bits": rng.randint(1, 31)}[kind]
            return {"kind": "ballot", "pred": kind, "k": k, "r": rng.randrange(k) if kind == "mod" else 0}
        if difficulty == 2:
            kind = rng.choice(["lt", "mod", "ge"])
            k = rng.choice([2, 3, 4]) if kind == "mod" else rng.randint(4, 28)
            order = list(range(4))
            rng.shuffle(order)
            return {"kind": "trust", "pred": kind, "k": k, "r": rng.randrange(k) if kind == "mod" else 0,
                    "snippet": rng.choice(["ballot", "activemask"]), "order": order}
        T = rng.choice([64, 128, 256, 512])
        return {"kind": "tail", "block": T, "n": rng.randrange(T + 1, 40 * T)}

    def compose(self, params):
        if params["kind"] == "tail":
            return self._tail(params)
        src, bits = _pred(params["pred"], params["k"], params["r"])
        m = _mask(bits)
        if params["kind"] == "ballot":
            ffs = (m & -m).bit_length()
            prompt = [
                p("All 32 lanes of a warp run this code (no lane has exited, `lane = threadIdx.x % 32`):",
                  "warp의 32개 lane이 모두 이 code를 실행합니다(종료한 lane 없음, `lane = threadIdx.x % 32`)."),
                code(f"int lane = threadIdx.x % 32;\nunsigned b = __ballot_sync(0xffffffff, {src});\n"
                     "int count = __popc(b);\nint first = __ffs(b);   // 1-based position of the lowest set bit, 0 if none",
                     ko={"1-based position of the lowest set bit, 0 if none": "켜진 가장 낮은 bit의 위치(1부터 셈), 없으면 0"}),
                p("What are `count` and `first`?", "`count`와 `first`의 값은 무엇입니까?"),
            ]
            fields = [integer_field("count", "count = __popc(b)", "count = __popc(b)"),
                      integer_field("first", "first = __ffs(b)", "first = __ffs(b)")]
            lanes = [i for i in range(32) if bits[i]]
            shown = ", ".join(map(str, lanes[:6])) + (", …" if len(lanes) > 6 else "")
            solution = [math(f"lanes with {src}: {shown or 'none'}  →  b = 0x{m:08x}"),
                        math(f"__popc(b) = {len(lanes)},  __ffs(b) = {ffs}"),
                        p("Bit i of the ballot is lane i's predicate; __ffs counts from 1, so lane 0 gives 1.",
                          "ballot의 bit i는 lane i의 predicate입니다. __ffs는 1부터 세므로 lane 0이면 1입니다.")]
            return prompt, fields, {"count": len(lanes), "first": ffs}, solution
        # trust: what a snippet's mask is guaranteed to be
        labels = [
            t(f"exactly 0x{m:08x}, the lanes where `{src}`", f"정확히 0x{m:08x}, 곧 `{src}` 조건이 참인 lane들"),
            t("0xffffffff, all 32 lanes", "0xffffffff, 32개 lane 전부"),
            t(f"exactly 0x{FULL ^ m:08x}, the lanes where `{src}` is false", f"정확히 0x{FULL ^ m:08x}, 곧 `{src}` 조건이 거짓인 lane들"),
            t("not fixed by the code: the lanes executing together at that moment, at least the calling lane and "
              f"never one outside 0x{m:08x}",
              f"code로 정해지지 않음: 그 순간 함께 실행 중인 lane들로, 호출한 lane은 포함하고 0x{m:08x} 밖의 lane은 "
              "포함하지 않음"),
        ]
        right = 0 if params["snippet"] == "ballot" else 3
        order = params["order"]
        keys = letters(4)
        choices = [Choice(keys[i], labels[order[i]]) for i in range(4)]
        key = keys[order.index(right)]
        body = (f"unsigned m = __ballot_sync(0xffffffff, {src});\nif ({src}) {{\n    float s = v;\n"
                "    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(m, s, o);   // (uses m)\n}"
                if params["snippet"] == "ballot" else
                f"if ({src}) {{\n    unsigned m = __activemask();\n    float s = v;\n"
                "    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(m, s, o);   // (uses m)\n}")
        prompt = [
            p("All 32 lanes of a warp reach this code (Volta or later, independent thread scheduling; "
              "`lane = threadIdx.x % 32`):",
              "warp의 32개 lane이 모두 이 code에 도달합니다(Volta 이후, independent thread scheduling; "
              "`lane = threadIdx.x % 32`)."),
            code("int lane = threadIdx.x % 32;\n" + body, ko={"(uses m)": "(m을 씀)"}),
            p("Inside the branch, what is `m` guaranteed to be?", "branch 안에서 `m`은 무엇으로 보장됩니까?"),
        ]
        fields = [choice_field("mask", "m", "m", choices)]
        solution = [
            p("`__ballot_sync(0xffffffff, pred)` is taken before the branch, with every lane named in its mask present: "
              f"it returns exactly the lanes whose predicate is true, 0x{m:08x}.",
              "`__ballot_sync(0xffffffff, pred)`는 branch 전에, mask의 모든 lane이 있는 상태에서 호출되므로 predicate가 참인 "
              f"lane들의 mask를 정확히 돌려줍니다(0x{m:08x})."),
            p("`__activemask()` inside the branch only reports the lanes that happen to execute together at that call; "
              "the lanes that took the branch need not have converged (CONTENT.md's erratum of seeds/000), so the "
              "shuffle with that mask may leave lanes out. Take the mask with `__ballot_sync` before the branch.",
              "branch 안의 `__activemask()`는 그 호출에서 마침 함께 실행 중인 lane만 알려 줍니다. branch에 들어온 lane들이 "
              "다시 모였다는 보장이 없으므로(seeds/000에 대한 CONTENT.md의 정정) 그 mask로 shuffle 명령을 쓰면 lane이 빠질 수 "
              "있습니다. mask는 branch 전에 `__ballot_sync`로 구합니다."),
        ]
        return prompt, fields, {"mask": key}, solution

    def _tail(self, params):
        T, n = params["block"], params["n"]
        blocks = -(-n // T)
        last = n % 32 or 32
        partial = sum(1 for w in range(blocks * T // 32) if 0 < n - 32 * w < 32)
        idle = sum(1 for w in range(blocks * T // 32) if n - 32 * w <= 0)
        prompt = [
            p(f"A kernel runs on n = {n} elements with {T}-thread blocks and ⌈n / {T}⌉ blocks. Before any thread "
              "leaves, each warp takes the mask of its lanes that hold an element, and later reduces with that mask:",
              f"커널이 n = {n}개 원소를 block당 thread {T}개, block ⌈n / {T}⌉개로 처리합니다. 어떤 thread도 끝나기 전에 "
              "warp마다 원소를 가진 lane의 mask를 구하고, 나중에 그 mask로 리덕션합니다."),
            code("int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "unsigned live = __ballot_sync(0xffffffff, i < n);   // every lane still present\n"
                 "if (i >= n) return;\nfloat v = x[i];\n"
                 "for (int o = 16; o > 0; o /= 2) {\n    float u = __shfl_down_sync(live, v, o);\n"
                 "    if ((threadIdx.x % 32) + o < 32 && ((live >> ((threadIdx.x % 32) + o)) & 1)) v += u;\n}",
                 ko={"every lane still present": "아직 남아 있는 모든 lane"}),
            p("In the warp that holds element n − 1, how many bits does `live` have set? How many warps of the grid get a "
              "`live` mask with some but not all bits set, and how many get `live == 0`?",
              "원소 n − 1을 가진 warp에서 `live`에는 bit가 몇 개 켜져 있습니까? grid의 warp 중 `live`의 bit가 일부만 켜진 "
              "warp는 몇 개이고, `live == 0`인 warp는 몇 개입니까?"),
        ]
        fields = [integer_field("bits", "Bits set in the last warp's live", "마지막 warp의 live에 켜진 bit 수"),
                  integer_field("partial", "Warps with a partial mask", "mask가 일부만 켜진 warp 수"),
                  integer_field("empty", "Warps with live == 0", "live == 0인 warp 수")]
        solution = [
            math(f"blocks = ⌈{n} / {T}⌉ = {blocks},  warps = {blocks * T // 32};  n mod 32 = {n % 32}  →  last warp: {last} lane" + ("" if last == 1 else "s")),
            math(f"partial warps = {partial},  empty warps (all lanes past n) = {idle}"),
            p("The ballot runs while all 32 lanes are present, so its full mask is legal; after the early return only "
              "the lanes in `live` are left, and the shuffles name exactly them. `__activemask()` after the return would "
              "not be guaranteed to give the same mask.",
              "ballot은 32개 lane이 모두 있을 때 실행되므로 full mask가 적법합니다. 일찍 `return`으로 종료한 lane이 빠지면 `live`의 "
              "lane만 남고 shuffle도 정확히 그 lane들을 지정합니다. `return` 뒤의 `__activemask()`가 같은 mask를 준다는 보장은 "
              "없습니다."),
        ]
        return prompt, fields, {"bits": last, "partial": partial, "empty": idle}, solution


def shfl_down(v: list[int], off: int, width: int = 32) -> list[int]:
    return [v[i] + (v[i + off] if i + off < width else v[i]) for i in range(width)]


class ShuffleReduction(Family):
    id = "reduction.shuffle"
    topic = Topic.REDUCTION
    title = t("Warp-shuffle reduction traces", "warp shuffle 리덕션 추적")

    def make_params(self, rng, difficulty):
        vals = [rng.randint(0, 9) for _ in range(32)]
        if difficulty == 1:
            return {"kind": "down", "v": vals, "step": rng.randint(1, 4), "lane": rng.randrange(32)}
        if difficulty == 2:
            return {"kind": "xor", "v": vals, "step": rng.randint(1, 4), "lane": rng.randrange(32),
                    "lane2": rng.randrange(32)}
        return {"kind": "block", "block": rng.choice([64, 128, 256, 512, 1024]), "n": rng.randrange(1000, 2_000_000)}

    def compose(self, params):
        if params["kind"] == "block":
            T, n = params["block"], params["n"]
            blocks = -(-n // T)
            w = T // 32
            second = (w - 1).bit_length() if w > 1 else 0
            per_block = w * 5 + second
            prompt = [
                p(f"A block reduction over n = {n} floats uses {T}-thread blocks (⌈n / {T}⌉ blocks, lanes past n "
                  "contribute 0): each warp reduces with five `__shfl_down_sync` steps, lane 0 of each warp writes its "
                  "sum to shared memory, then warp 0 reduces those partial sums with as few shuffle steps as needed, "
                  "and thread 0 adds the block's sum to the result.",
                  f"n = {n}개 float의 block 리덕션을 block당 thread {T}개(block ⌈n / {T}⌉개, n 밖의 lane은 0을 "
                  "기여)로 합니다. warp마다 `__shfl_down_sync` 다섯 step으로 리덕션하고, 각 warp의 lane 0이 합을 shared "
                  "memory에 쓰고, warp 0이 그 부분합을 필요한 만큼의 shuffle step으로 리덕션한 뒤 thread 0이 block의 합을 "
                  "결과에 더합니다."),
                code("float v = (i < n) ? x[i] : 0.0f;\nfor (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
                     "if (lane == 0) s[warp] = v;\n__syncthreads();\n"
                     "if (warp == 0) {\n    v = (lane < blockDim.x / 32) ? s[lane] : 0.0f;\n"
                     "    for (int o = W / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);  // W = blockDim.x/32\n"
                     "    if (lane == 0) atomicAdd(result, v);\n}"),
                p("How many warp-level shuffle instructions does one block execute (count one per warp per step), and how "
                  "many atomicAdd calls reach `result` in all?",
                  "block 하나가 실행하는 warp 단위 shuffle 명령은 몇 개이고(warp마다 step마다 하나), `result`에 도달하는 "
                  "atomicAdd는 모두 몇 번입니까?"),
            ]
            fields = [integer_field("shuffles", "Shuffles per block", "block당 shuffle 수"),
                      integer_field("atomics", "atomicAdd calls", "atomicAdd 수")]
            solution = [math(f"warps per block W = {T} / 32 = {w};  first stage {w} × 5 = {w * 5}"),
                        math(f"second stage: o = {w // 2}, …, 1 → {second} step{'s' if second != 1 else ''};  "
                             f"total {per_block}"),
                        math(f"atomics: one per block = ⌈{n} / {T}⌉ = {blocks}")]
            return prompt, fields, {"shuffles": per_block, "atomics": blocks}, solution
        v, k, lane = params["v"], params["step"], params["lane"]
        arr = "int v = in[lane];   // in = {" + ", ".join(map(str, v)) + "}"
        hist = [v]
        if params["kind"] == "down":
            offs = [16, 8, 4, 2, 1]
            for o in offs:
                hist.append(shfl_down(hist[-1], o))
            prompt = [
                p("All 32 lanes of a warp run this reduction (`lane = threadIdx.x % 32`). `__shfl_down_sync` gives lane "
                  "L the value of lane L + offset; a lane whose source would be past lane 31 gets its own value back.",
                  "warp의 32개 lane이 모두 이 리덕션을 실행합니다(`lane = threadIdx.x % 32`). `__shfl_down_sync`는 lane "
                  "L에 lane L + offset의 값을 주고, 원천이 lane 31을 넘는 lane은 자기 값을 돌려받습니다."),
                code(arr + "\nfor (int offset = 16; offset > 0; offset /= 2)   // step 1: offset 16\n"
                     "    v += __shfl_down_sync(0xffffffff, v, offset);"),
                p(f"What does lane {lane} hold after step {k}, and what does lane 0 hold at the end?",
                  f"step {k} 뒤 lane {lane}의 값은 무엇이고, 끝났을 때 lane 0의 값은 무엇입니까?"),
            ]
            fields = [integer_field("value", f"Lane {lane} after step {k}", f"step {k} 뒤 lane {lane}"),
                      integer_field("total", "Lane 0 at the end", "끝난 뒤 lane 0")]
            solution = [math(f"after step {j + 1} (offset {o}): lane {lane} = {hist[j + 1][lane]}") for j, o in
                        enumerate(offs[:k])]
            solution.append(math(f"lane 0 at the end = Σ in = {sum(v)}"))
            solution.append(p("Lanes near the top add their own value again (the source is past lane 31), so only "
                              "lane 0's final value is the sum.",
                              "위쪽 lane은 원천이 lane 31을 넘어 자기 값을 다시 더하므로 lane 0의 최종값만 합입니다."))
            return prompt, fields, {"value": hist[k][lane], "total": hist[5][0]}, solution
        offs = [1, 2, 4, 8, 16]
        for o in offs:
            cur = hist[-1]
            hist.append([cur[i] + cur[i ^ o] for i in range(32)])
        l2 = params["lane2"]
        prompt = [
            p("All 32 lanes of a warp run this butterfly reduction (`lane = threadIdx.x % 32`). `__shfl_xor_sync` gives "
              "lane L the value of lane L ^ mask.",
              "warp의 32개 lane이 모두 이 butterfly 리덕션을 실행합니다(`lane = threadIdx.x % 32`). `__shfl_xor_sync`는 "
              "lane L에 lane L ^ mask의 값을 줍니다."),
            code(arr + "\nfor (int mask = 1; mask < 32; mask *= 2)   // step 1: mask 1\n"
                 "    v += __shfl_xor_sync(0xffffffff, v, mask);"),
            p(f"What does lane {lane} hold after step {k}, and lane {l2} at the end?",
              f"step {k} 뒤 lane {lane}의 값은 무엇이고, 끝났을 때 lane {l2}의 값은 무엇입니까?"),
        ]
        fields = [integer_field("value", f"Lane {lane} after step {k}", f"step {k} 뒤 lane {lane}"),
                  integer_field("end", f"Lane {l2} at the end", f"끝난 뒤 lane {l2}")]
        group = 1 << k
        g0 = lane - lane % group
        solution = [math(f"after step {k}: lane {lane} holds the sum of lanes {g0} … {g0 + group - 1} = {hist[k][lane]}"),
                    math(f"at the end every lane holds Σ in = {hist[5][l2]}"),
                    p("Each xor step merges pairs of groups, so after step k a lane holds its aligned group of 2^k "
                      "lanes, and after five steps every lane has the whole sum.",
                      "xor step마다 group 두 개가 합쳐지므로 step k 뒤 lane은 정렬된 2^k개 lane group의 합을, 다섯 step 뒤에는 "
                      "모든 lane이 전체 합을 가집니다.")]
        return prompt, fields, {"value": hist[k][lane], "end": hist[5][l2]}, solution


FAMILIES: tuple[Family, ...] = (Ballot(), ShuffleReduction())
