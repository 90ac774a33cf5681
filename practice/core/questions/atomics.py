"""Atomic contention: how many atomics land on one address, and how block pre-reduction, shared-memory
privatization and warp aggregation cut them.

Sources: seeds/003 (BatchNorm statistics and CrossEntropy: "one atomic per element onto C addresses
serialises"; a block-level pre-reduction first) and CONTENT.md's "histogram with atomics"; the exam kind
of PMPP ch. 9 (privatization) and CS344 quizzes (atomic throughput on one address).
"""
from __future__ import annotations

from .base import Family, Topic, code, integer_field, math, number_field, p, t


class Contention(Family):
    id = "atomics.contention"
    topic = Topic.ATOMICS
    title = t("Atomic contention", "atomic 경합")

    def make_params(self, rng, difficulty):
        n, T = rng.randrange(100_000, 20_000_000), rng.choice([128, 256, 512, 1024])
        if difficulty == 1:
            return {"kind": "sum", "n": n, "block": T}
        if difficulty == 2:
            return {"kind": "histogram", "n": n, "block": T, "bins": rng.choice([16, 64, 100, 256, 1000])}
        return {"kind": "serialize", "n": n - n % 32, "ns": rng.choice([1, 2, 4, 5, 8])}  # full warps only

    def compose(self, params):
        n = params["n"]
        if params["kind"] == "sum":
            T = params["block"]
            blocks = -(-n // T)
            prompt = [
                p(f"A sum over n = {n} floats is computed with {T}-thread blocks and one thread per element. Version A "
                  "adds each element straight into the result; version B first reduces each block in shared memory "
                  "and then thread 0 of each block adds the block's partial sum.",
                  f"n = {n}개 float의 합을 block당 thread {T}개, 원소당 thread 하나로 계산합니다. version A는 원소마다 결과에 "
                  "바로 더하고, version B는 먼저 block마다 shared memory에서 리덕션한 뒤 block의 thread 0이 부분합을 "
                  "더합니다."),
                code("// A\nif (i < n) atomicAdd(&sum, x[i]);\n"
                     "// B\n/* block reduction into s[0] */\nif (threadIdx.x == 0) atomicAdd(&sum, s[0]);",
                     ko={"block reduction into s[0]": "block 안에서 s[0]으로 리덕션"}),
                p("How many atomic operations reach the address `&sum` in version A and in version B?",
                  "`&sum` 주소에 도달하는 atomic 연산은 version A와 version B에서 각각 몇 번입니까?"),
            ]
            fields = [integer_field("a", "Version A: atomics", "version A: atomic 수"),
                      integer_field("b", "Version B: atomics", "version B: atomic 수")]
            answer = {"a": n, "b": blocks}
            solution = [math(f"A: one per element = {n}"), math(f"B: one per block = ⌈{n} / {T}⌉ = {blocks}"),
                        p("All of them target one address, so they serialise in the L2 atomic unit: B cuts the "
                          f"serial chain {T}-fold.",
                          f"모두 한 주소를 향하므로 L2의 atomic unit에서 직렬화됩니다. B는 그 직렬 사슬을 {T}분의 1로 줄입니다.")]
            return prompt, fields, answer, solution
        if params["kind"] == "histogram":
            T, B = params["block"], params["bins"]
            blocks = -(-n // T)
            most = -(-n // B)
            prompt = [
                p(f"A kernel counts n = {n} items into B = {B} bins with one thread per item ({T}-thread blocks); item i "
                  "falls into bin i mod B. Version A increments the global histogram directly; version B keeps a "
                  "private histogram per block in shared memory and finally adds each of its B bins to the global "
                  "one with one atomicAdd per bin.",
                  f"커널이 n = {n}개 항목을 bin B = {B}개로 셉니다(항목당 thread 하나, block당 thread {T}개). 항목 i는 bin "
                  "i mod B에 들어갑니다. version A는 global histogram을 바로 증가시키고, version B는 block마다 shared "
                  "memory에 private histogram을 두었다가 마지막에 bin B개를 bin당 atomicAdd 한 번으로 global histogram에 "
                  "더합니다."),
                code("// A\nif (i < n) atomicAdd(&hist[i % B], 1);\n"
                     "// B\nif (i < n) atomicAdd(&s_hist[i % B], 1);\n__syncthreads();\n"
                     "for (int b = threadIdx.x; b < B; b += blockDim.x) atomicAdd(&hist[b], s_hist[b]);"),
                p("In version A, how many global atomics hit the busiest bin? In version B, how many global atomics "
                  "are issued in all?",
                  "version A에서 가장 붐비는 bin에 도달하는 global atomic은 몇 번입니까? version B에서 global atomic은 모두 "
                  "몇 번입니까?"),
            ]
            fields = [integer_field("busiest", "A: atomics on the busiest bin", "A: 가장 붐비는 bin의 atomic 수"),
                      integer_field("global_b", "B: global atomics", "B: global atomic 수")]
            answer = {"busiest": most, "global_b": blocks * B}
            solution = [math(f"A: bin 0 receives i = 0, B, 2B, … → ⌈{n} / {B}⌉ = {most}"),
                        math(f"B: {blocks} blocks × {B} bins = {blocks * B}")]
            return prompt, fields, answer, solution
        ns = params["ns"]
        agg = -(-n // 32)
        prompt = [
            p(f"n = {n} threads each add 1 to the same global counter. Atomics on one address are serialised: the "
              f"memory system completes one every {ns} ns. Version A: every thread calls atomicAdd. Version B "
              "(warp aggregation): each warp adds its lanes with a warp reduction and one lane adds the warp's total.",
              f"thread n = {n}개가 모두 같은 global counter에 1을 더합니다. 한 주소에 대한 atomic은 직렬화되어 memory "
              f"system이 {ns} ns마다 하나씩 처리합니다. version A는 모든 thread가 atomicAdd를 부르고, version B(warp "
              "aggregation)는 warp가 lane 값을 warp 리덕션으로 더한 뒤 lane 하나만 warp 합계를 더합니다."),
            code("// B\nint v = __reduce_add_sync(0xffffffff, 1);\nif ((threadIdx.x & 31) == 0) atomicAdd(&counter, v);"),
            p("Ignoring everything but the serialised atomics, how long does each version take, in microseconds? "
              "(n is a multiple of 32, so every warp is full and the full mask is right.)",
              "직렬화된 atomic만 고려하면 각 version은 몇 µs 걸립니까? (n은 32의 배수이므로 모든 warp가 꽉 차 있고 full "
              "mask가 맞습니다.)"),
        ]
        fields = [number_field("a_us", "Version A (µs)", "version A (µs)"), number_field("b_us", "Version B (µs)", "version B (µs)")]
        answer = {"a_us": round(n * ns / 1000, 6), "b_us": round(agg * ns / 1000, 6)}
        solution = [math(f"A: {n} × {ns} ns = {n * ns / 1000:.3f} µs"),
                    math(f"B: ⌈{n} / 32⌉ = {agg} atomics → {agg * ns / 1000:.3f} µs")]
        return prompt, fields, answer, solution


FAMILIES = (Contention(),)
