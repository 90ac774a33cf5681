"""Thread coarsening: which elements a thread handles when each does C of them, contiguous or strided, and
what that does to coalescing.

Sources: seeds/000 lines 1469–1554 (the grid-stride loop, the strided form of coarsening) and the exam
kind of PMPP 4th ed. ch. 6.3 ("thread coarsening") and ECE408 quizzes on coarsened indices.
"""
from __future__ import annotations

from .base import Family, Topic, code, integer_field, math, p, t

CONTIGUOUS = ("int base = (blockIdx.x * blockDim.x + threadIdx.x) * C;\n"
              "for (int k = 0; k < C; ++k)\n    if (base + k < n) out[base + k] = f(in[base + k]);")
STRIDED = ("int base = blockIdx.x * blockDim.x * C + threadIdx.x;\n"
           "for (int k = 0; k < C; ++k)\n    if (base + k * blockDim.x < n) out[base + k * blockDim.x] = f(in[base + k * blockDim.x]);")


def _sectors(byte_addrs: list[int]) -> int:
    return len({a // 32 for a in byte_addrs})


class Coarsening(Family):
    id = "indexing.coarsening"
    topic = Topic.INDEXING
    title = t("Thread coarsening indices", "thread coarsening의 index")

    def make_params(self, rng, difficulty):
        T, C = rng.choice([64, 128, 256, 512]), rng.choice([2, 4, 8, 16])
        n = rng.randrange(10_000, 2_000_000)
        if difficulty == 1:
            blocks = -(-n // (T * C))
            return {"kind": "contiguous", "block": T, "c": C, "n": n, "b": rng.randrange(blocks),
                    "t": rng.randrange(T), "k": rng.randrange(C)}
        if difficulty == 2:
            return {"kind": "strided", "block": T, "c": C, "n": n, "e": rng.randrange(n)}
        return {"kind": "coalescing", "block": T, "c": rng.choice([2, 3, 4, 8, 16])}

    def compose(self, params):
        T, C = params["block"], params["c"]
        if params["kind"] == "contiguous":
            n, b, th, k = params["n"], params["b"], params["t"], params["k"]
            idx = (b * T + th) * C + k
            blocks = -(-n // (T * C))
            prompt = [
                p(f"Each thread handles C = {C} consecutive elements of an array of n = {n}; blocks have {T} threads.",
                  f"thread마다 n = {n}개 배열의 연속된 원소 C = {C}개를 처리합니다. block은 thread {T}개입니다."),
                code(CONTIGUOUS),
                p(f"How many blocks does the grid need, and which element index (from 0) does the thread with "
                  f"blockIdx.x = {b}, threadIdx.x = {th} touch at k = {k}?",
                  f"grid에는 block이 몇 개 필요하고, blockIdx.x = {b}, threadIdx.x = {th}인 thread는 k = {k}에서 몇 번 "
                  "index(0부터)의 원소를 다룹니까?"),
            ]
            fields = [integer_field("blocks", "Blocks", "block 수"), integer_field("idx", "Element index", "원소 index")]
            answer = {"blocks": blocks, "idx": idx}
            solution = [math(f"blocks = ⌈{n} / ({T} × {C})⌉ = {blocks}"),
                        math(f"index = ({b} × {T} + {th}) × {C} + {k} = {idx}")]
            return prompt, fields, answer, solution
        if params["kind"] == "strided":
            n, e = params["n"], params["e"]
            b, rest = divmod(e, T * C)
            k, th = divmod(rest, T)
            prompt = [
                p(f"Each thread handles C = {C} elements of an array of n = {n}, {T} apart (blocks have {T} threads), so "
                  "that a warp's accesses stay contiguous:",
                  f"thread마다 n = {n}개 배열에서 {T}씩 떨어진 원소 C = {C}개를 처리합니다(block은 thread {T}개). 그래서 "
                  "warp의 접근이 연속으로 유지됩니다."),
                code(STRIDED),
                p(f"Which block, thread and iteration k handle element {e}?",
                  f"index가 {e}인 원소를 처리하는 block, thread, 반복 k는 각각 무엇입니까?"),
            ]
            fields = [integer_field("block", "blockIdx.x", "blockIdx.x"), integer_field("thread", "threadIdx.x", "threadIdx.x"),
                      integer_field("k", "k", "k")]
            answer = {"block": b, "thread": th, "k": k}
            solution = [math(f"blockIdx.x = ⌊{e} / ({T} × {C})⌋ = {b},  r = {e} − {b} × {T * C} = {rest}"),
                        math(f"k = ⌊{rest} / {T}⌋ = {k},  threadIdx.x = {rest} mod {T} = {th}")]
            return prompt, fields, answer, solution
        contiguous = _sectors([4 * (lane * C) for lane in range(32)])
        strided = _sectors([4 * lane for lane in range(32)])
        prompt = [
            p(f"Two coarsened kernels give each thread C = {C} `float` elements (256-byte aligned array, blocks of {T} "
              "threads). Version A takes them contiguously, version B strided by blockDim.x:",
              f"thread coarsening을 적용한 두 커널이 thread마다 `float` 원소 C = {C}개를 맡깁니다(배열은 256 byte 정렬, block은 thread "
              f"{T}개). version A는 연속된 원소를, version B는 blockDim.x 간격의 원소를 맡습니다."),
            code("// version A\n" + CONTIGUOUS + "\n// version B\n" + STRIDED),
            p("For the first warp at iteration k = 0, how many 32-byte sectors does the read of `in` touch in version A "
              "and in version B?",
              "첫 warp의 반복 k = 0에서 `in` 읽기가 건드리는 32 byte sector는 version A와 version B에서 각각 몇 개입니까?"),
        ]
        fields = [integer_field("contiguous", "Version A: sectors", "version A: sector 수"),
                  integer_field("strided", "Version B: sectors", "version B: sector 수")]
        answer = {"contiguous": contiguous, "strided": strided}
        solution = [math(f"A: lane l reads element {C}·l, {4 * C} B apart → {contiguous} sectors"),
                    math(f"B: lane l reads element l, 128 contiguous bytes → {strided} sectors"),
                    p("Contiguous coarsening looks natural but spreads a warp's request; the strided form keeps it "
                      "coalesced at every k.",
                      "연속 coarsening은 자연스러워 보이지만 warp의 요청을 흩뜨리고, 간격을 둔 형태는 모든 k에서 coalesced "
                      "접근을 유지합니다.")]
        return prompt, fields, answer, solution


FAMILIES = (Coarsening(),)
