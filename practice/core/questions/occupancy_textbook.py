"""The textbook occupancy model beside the exact one.

PMPP (ch. 4, "resource partitioning") and UIUC ECE408 quizzes divide each SM resource by what a block
asks for, with no allocation granularity: blocks = min(block slots, ⌊threads/SM ÷ T⌋,
⌊registers/SM ÷ (r·T)⌋, ⌊shared/SM ÷ S⌋). Real hardware (CUDA's occupancy calculator, our
problems.core.occupancy) allocates registers per warp in units of 256 over 4 sub-partitions and shared
memory in 128/256 B units plus a 1 KiB per-block reservation (cc 8.0+). The two disagree, e.g.
256 threads × 34 registers on cc 8.0 or 9.0 (2048 threads per SM): ⌊65536 / 8704⌋ = 7 blocks in the
textbook, 6 exactly (34·32 = 1088 → 1280
registers per warp; ⌊16384 / 1280⌋ = 12 warps per sub-partition → 48 warps → 6 blocks).
Each question says which model it asks for. Source: seeds/000 lines 561–687 (the seed's own worked
examples use the exact rules on cc 8.6); the textbook model is the exam kind of PMPP 4.x / ECE408.
"""
from __future__ import annotations

from problems.core.gpus import capability
from problems.core.occupancy import occupancy

from .base import Family, Topic, fraction_field, integer_field, items, math, p, t

# Hypothetical SMs as exam papers print them (threads, blocks, registers, shared bytes per SM).
PAPER_SMS = [(1536, 16, 65536, 98304), (2048, 32, 65536, 65536), (2048, 16, 65536, 49152), (1536, 8, 32768, 49152),
             (2048, 8, 65536, 98304)]
NAMED_CCS = ["7.5", "8.0", "8.6", "8.9", "9.0"]


def textbook_limits(max_threads: int, max_blocks: int, regs_sm: int, smem_sm: int, threads: int, regs: int,
                    smem: int) -> dict[str, int | None]:
    """Blocks per SM each resource allows in the textbook model (None: the resource sets no limit)."""
    return {
        "threads": max_threads // threads,
        "blocks": max_blocks,
        "registers": regs_sm // (regs * threads) if regs else None,
        "shared": smem_sm // smem if smem else None,
    }


def _min(limits: dict[str, int | None]) -> int:
    return min(v for v in limits.values() if v is not None)


NAMES = {"threads": t("threads", "thread"), "blocks": t("block slots", "block slot"),
         "registers": t("registers", "register"), "shared": t("shared memory", "shared memory")}


class TextbookOccupancy(Family):
    id = "occupancy.textbook"
    topic = Topic.OCCUPANCY
    title = t("Occupancy: the textbook model and the exact one", "Occupancy: 교재 모델과 정확한 모델")

    def make_params(self, rng, difficulty):
        if difficulty == 1:
            sm = rng.choice(PAPER_SMS)
            threads = rng.choice([t_ for t_ in (64, 128, 192, 256, 384, 512, 768, 1024) if t_ <= sm[0]])
            return {"model": "paper", "sm": list(sm), "threads": threads, "regs": rng.randrange(16, 65),
                    "smem": rng.choice([0, 2048, 4096, 6144, 8192, 12288, 16384])}
        if difficulty == 2:
            if rng.random() < 0.15:
                return {"model": "both", "cc": rng.choice(["8.0", "9.0"]), "threads": 256, "regs": 34, "smem": 0}  # 7 vs 6
            return {"model": "both", "cc": rng.choice(NAMED_CCS), "threads": rng.choice([128, 192, 256, 384, 512]),
                    "regs": rng.randrange(17, 90), "smem": rng.choice([0, 0, 1024, 3000, 6144, 10000])}
        cc = rng.choice(NAMED_CCS)
        cap = capability(cc)
        threads = rng.choice([128, 192, 256, 384, 512])
        k = rng.randrange(1, min(cap.max_blocks_per_sm, cap.max_threads_per_sm // threads) + 1)
        return {"model": "budget", "cc": cc, "threads": threads, "blocks": k}

    def compose(self, params):
        return {"paper": self._paper, "both": self._both, "budget": self._budget}[params["model"]](params)

    def _paper(self, params):
        mt, mb, rs, ss = params["sm"]
        th, rg, sm = params["threads"], params["regs"], params["smem"]
        lim = textbook_limits(mt, mb, rs, ss, th, rg, sm)
        blocks = _min(lim)
        occ = blocks * th / mt
        prompt = [
            p("Use the textbook model (each SM resource divided by what one block needs, no allocation "
              "granularity). An SM has:",
              "교재 모델(SM 자원을 block 하나가 쓰는 양으로 나누고 할당 단위는 무시)을 씁니다. SM의 자원은 다음과 같습니다."),
            items([f"{mt} threads, {mb} blocks, {rs} registers and {ss} B of shared memory per SM"],
                  [f"SM당 thread {mt}개, block {mb}개, register {rs}개, shared memory {ss} B"]),
            p(f"A kernel uses {th} threads per block, {rg} registers per thread and {sm} B of shared memory per "
              "block. How many blocks are resident per SM, and what is the occupancy (resident threads / max "
              "threads per SM)?",
              f"커널은 block당 thread {th}개, thread당 register {rg}개, block당 shared memory {sm} B를 씁니다. SM당 "
              "상주 block은 몇 개이고, occupancy (상주 thread / SM당 최대 thread)는 얼마입니까?"),
        ]
        fields = [integer_field("blocks", "Blocks per SM", "SM당 block 수"),
                  fraction_field("occupancy", "Occupancy", "occupancy")]
        answer = {"blocks": blocks, "occupancy": round(occ, 6)}
        solution = [math(f"threads: ⌊{mt} / {th}⌋ = {lim['threads']},  block slots: {mb}"),
                    math(f"registers: ⌊{rs} / ({rg} × {th})⌋ = {lim['registers']}")]
        if sm:
            solution.append(math(f"shared memory: ⌊{ss} / {sm}⌋ = {lim['shared']}"))
        solution.append(math(f"blocks = {blocks},  occupancy = {blocks} × {th} / {mt} = {occ:.4f}"))
        return prompt, fields, answer, solution

    def _both(self, params):
        cap = capability(params["cc"])
        th, rg, sm = params["threads"], params["regs"], params["smem"]
        lim = textbook_limits(cap.max_threads_per_sm, cap.max_blocks_per_sm, cap.regs_per_sm, cap.smem_per_sm,
                              th, rg, sm)
        tb = _min(lim)
        ex = occupancy(cap.cc, th, rg, sm)
        prompt = [
            p(f"On compute capability {cap.cc} an SM has {cap.max_threads_per_sm} threads, {cap.max_blocks_per_sm} "
              f"blocks, {cap.regs_per_sm} registers and up to {cap.smem_per_sm} B of shared memory. A kernel uses "
              f"{th} threads per block, {rg} registers per thread and {sm} B of shared memory per block.",
              f"compute capability {cap.cc}의 SM은 thread {cap.max_threads_per_sm}개, block {cap.max_blocks_per_sm}개, "
              f"register {cap.regs_per_sm}개, shared memory 최대 {cap.smem_per_sm} B를 가집니다. 커널은 block당 "
              f"thread {th}개, thread당 register {rg}개, block당 shared memory {sm} B를 씁니다."),
            p("How many blocks per SM does (1) the textbook model give (no allocation granularity), and (2) the "
              "exact model give (registers allocated per warp in units of 256 over 4 sub-partitions, shared memory "
              f"in {cap.smem_alloc_unit} B units plus {cap.smem_reserved_per_block} B reserved per block, the "
              "default carveout chosen by the driver)?",
              "(1) 교재 모델(할당 단위 무시)과 (2) 정확한 모델(register는 warp마다 256개 단위로 sub-partition 4개에 "
              f"할당, shared memory는 {cap.smem_alloc_unit} B 단위에 block당 {cap.smem_reserved_per_block} B 예약, "
              "carveout은 driver가 선택)에서 SM당 block 수는 각각 몇 개입니까?"),
        ]
        fields = [integer_field("textbook", "Textbook model: blocks per SM", "교재 모델: SM당 block 수"),
                  integer_field("exact", "Exact model: blocks per SM", "정확한 모델: SM당 block 수")]
        answer = {"textbook": tb, "exact": ex.blocks_per_sm}
        solution = [math(f"textbook: min(⌊{cap.max_threads_per_sm} / {th}⌋, {cap.max_blocks_per_sm}, "
                         f"⌊{cap.regs_per_sm} / ({rg} × {th})⌋"
                         + (f", ⌊{cap.smem_per_sm} / {sm}⌋" if sm else "") + f") = {tb}")]
        solution += [p(s.text("en"), s.text("ko")) for s in ex.steps]
        same = tb == ex.blocks_per_sm
        solution.append(p(
            "The two models agree here." if same else
            f"They differ ({tb} vs {ex.blocks_per_sm}): rounding each warp's registers up to a multiple of 256 "
            "(and whole warps per sub-partition), or shared memory up to its unit plus the reservation, costs "
            "resident blocks that the textbook division does not see.",
            "여기서는 두 모델이 같습니다." if same else
            f"두 모델이 다릅니다({tb} 대 {ex.blocks_per_sm}). warp마다 register를 256의 배수로 올려 할당하고(sub-partition마다 "
            "warp 단위), shared memory를 할당 단위로 올리고 예약분을 더하면 교재식 나눗셈에는 보이지 않는 block이 "
            "줄어듭니다."))
        return prompt, fields, answer, solution

    def _budget(self, params):
        cap = capability(params["cc"])
        th, k = params["threads"], params["blocks"]
        tb = min(cap.max_regs_per_thread, cap.regs_per_sm // (k * th))
        ex = next(r for r in range(cap.max_regs_per_thread, 0, -1) if occupancy(cap.cc, th, r, 0).blocks_per_sm >= k)
        prompt = [
            p(f"On compute capability {cap.cc} ({cap.regs_per_sm} registers per SM, at most "
              f"{cap.max_regs_per_thread} per thread), a kernel with {th} threads per block and no shared memory "
              f"must keep {k} blocks resident per SM. What is the largest registers-per-thread count that allows "
              "this (1) in the textbook model (registers/SM ÷ (r × threads), no granularity) and (2) in the exact "
              "model (per-warp allocation in units of 256 over 4 sub-partitions)?",
              f"compute capability {cap.cc} (SM당 register {cap.regs_per_sm}개, thread당 최대 {cap.max_regs_per_thread}개)에서 "
              f"block당 thread {th}개, shared memory 없음인 커널이 SM당 block {k}개를 상주시켜야 합니다. 이를 "
              "허용하는 thread당 최대 register 수는 (1) 교재 모델(SM register ÷ (r × thread), 할당 단위 무시)과 (2) "
              "정확한 모델(warp마다 256개 단위, sub-partition 4개)에서 각각 얼마입니까?"),
        ]
        fields = [integer_field("textbook", "Textbook model: max registers", "교재 모델: 최대 register"),
                  integer_field("exact", "Exact model: max registers", "정확한 모델: 최대 register")]
        answer = {"textbook": tb, "exact": ex}
        warps = -(-th // 32)
        per_sub = -(-k * warps // 4)
        solution = [
            math(f"textbook: ⌊{cap.regs_per_sm} / ({k} × {th})⌋ = {cap.regs_per_sm // (k * th)}"
                 + (f" → capped at {cap.max_regs_per_thread}" if tb < cap.regs_per_sm // (k * th) else "")),
            p(f"Exact: {k} blocks × {warps} warps must fit the 4 sub-partitions of {cap.regs_per_sm // 4} registers "
              f"each, so the busiest sub-partition holds {per_sub} warps; a warp may then use "
              f"⌊{cap.regs_per_sm // 4} / {per_sub}⌋ registers rounded down to a multiple of 256, i.e. r × 32 must "
              "round up to no more than that.",
              f"정확한 모델: block {k}개 × warp {warps}개가 register {cap.regs_per_sm // 4}개짜리 sub-partition 4개에 "
              f"들어가야 하므로 가장 많은 sub-partition에 warp {per_sub}개가 놓입니다. warp 하나는 "
              f"⌊{cap.regs_per_sm // 4} / {per_sub}⌋을 256의 배수로 내린 만큼 쓸 수 있고, r × 32를 256 단위로 올린 값이 "
              "그 이하여야 합니다."),
            math(f"exact: r = {ex}  (r + 1 = {ex + 1} gives "
                 f"{occupancy(cap.cc, th, min(ex + 1, 255), 0).blocks_per_sm if ex < 255 else '—'} blocks)"),
        ]
        return prompt, fields, answer, solution


FAMILIES = (TextbookOccupancy(),)
