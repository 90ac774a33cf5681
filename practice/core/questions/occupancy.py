"""Occupancy question families. Every answer comes from the occupancy model (problems.core.occupancy);
the worked solutions that use a closed form are checked against the model's search in the tests.

Source: seeds/000 lines 561–687 and 1078–1139 (blocks per SM, the limiting resource, registers and
shared memory per block; cc 8.6 in its worked examples) and CONTENT.md's "Problem ideas" for
occupancy; the exam kind is PMPP's and ECE408's occupancy exercises (the textbook model is the
separate occupancy.textbook family)."""
from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

from problems.core.gpus import GPUS, GPU, ComputeCapability, gpu as gpu_by_key, gpus_for
from problems.core.occupancy import LIMITER_NAMES, Limiter, max_dynamic_smem_for, max_registers_for, occupancy

from ..answers import Choice
from .base import (
    TARGET_CC,
    Block,
    Family,
    Topic,
    choice_field,
    fraction_field,
    integer_field,
    items,
    math,
    p,
    t,
)

# Which GPUs each difficulty draws from (keys of problems.core.gpus.GPUS).
GPU_POOL = {
    1: ["rtx-3090", "rtx-a6000", "a100", "h100-sxm"],
    2: ["t4", "a100", "rtx-3090", "rtx-4090", "l4", "h100-sxm", "h200"],
    3: [g.key for g in GPUS],
}
THREADS_POOL = {
    1: [128, 256, 512],
    2: [64, 96, 128, 192, 256, 384, 512, 768, 1024],
    3: [64, 96, 100, 128, 160, 192, 200, 256, 320, 384, 500, 512, 640, 768, 1000, 1024],
}
SMEM_POOL = {
    1: [0, 1024, 2048, 4096, 8192],
    2: [0, 2048, 4096, 8192, 12288, 16384, 24576, 32768],
    3: [0, 1000, 3000, 6144, 12288, 20000, 32768, 40960, 49152, 65536, 100000],
}


def draw_regs(rng: random.Random, difficulty: int) -> int:
    if difficulty == 1:
        return rng.choice(range(16, 72, 8))
    if difficulty == 2:
        return rng.randint(16, 128)
    return rng.randint(16, 255)


@functools.cache
def _keys_for(cc: str) -> tuple[str, ...]:
    return tuple(g.key for g in gpus_for(cc))


def target_gpu_keys(difficulty: int) -> Sequence[str]:
    """The GPUs a question of this difficulty may be drawn on: those of the course's target compute
    capability while Family.generate runs with one (base.TARGET_CC), else GPU_POOL[difficulty]."""
    cc = TARGET_CC.get()
    if cc:
        keys = _keys_for(cc)
        if keys:
            return keys
    return GPU_POOL[difficulty]


class GpuFamily(Family):
    """An occupancy family: its GPU is drawn through target_gpu_keys (a course's target GPU decides)."""

    uses_target_cc = True


def draw_launch(rng: random.Random, difficulty: int) -> dict[str, Any]:
    g = gpu_by_key(rng.choice(target_gpu_keys(difficulty)))
    threads = rng.choice([x for x in THREADS_POOL[difficulty] if x <= g.capability.max_threads_per_sm])
    smem = rng.choice([s for s in SMEM_POOL[difficulty] if s <= g.capability.smem_per_block_optin])
    return {"gpu": g.key, "threads": threads, "regs": draw_regs(rng, difficulty), "smem": smem}


def gpu_text(g: GPU) -> dict[str, str]:
    return t(f"an {g.name} (compute capability {g.cc}, {g.sm_count} SMs)",
             f"{g.name} (compute capability {g.cc}, SM {g.sm_count}개)")


def facts(cap: ComputeCapability) -> Block:
    """The per-SM limits students are given (exams print them)."""
    reserved_en = f"; the driver reserves {cap.smem_reserved_per_block} B per block" if cap.smem_reserved_per_block else ""
    reserved_ko = f"; driver가 block마다 {cap.smem_reserved_per_block} B를 예약" if cap.smem_reserved_per_block else ""
    return items(
        [
            f"cc {cap.cc}: up to {cap.max_threads_per_sm} threads ({cap.max_warps_per_sm} warps) and "
            f"{cap.max_blocks_per_sm} blocks per SM; at most 1024 threads per block",
            f"{cap.regs_per_sm} registers per SM, allocated per warp in units of 256, over 4 sub-partitions",
            f"{cap.smem_per_sm} B of shared memory per SM, allocated in units of {cap.smem_alloc_unit} B{reserved_en}",
        ],
        [
            f"cc {cap.cc}: SM당 최대 thread {cap.max_threads_per_sm}개 (warp {cap.max_warps_per_sm}개), "
            f"block {cap.max_blocks_per_sm}개; block당 thread는 최대 1024개",
            f"SM당 register {cap.regs_per_sm}개, warp 단위로 256개씩 할당, sub-partition 4개에 나뉨",
            f"SM당 shared memory {cap.smem_per_sm} B, {cap.smem_alloc_unit} B 단위로 할당{reserved_ko}",
        ],
    )


def launch_text(params: dict[str, Any]) -> Block:
    g = gpu_by_key(params["gpu"])
    gt = gpu_text(g)
    th, rg, sm = params["threads"], params["regs"], params["smem"]
    return p(
        f"A kernel runs on {gt['en']}. It is launched with {th} threads per block; ptxas reports {rg} registers "
        f"per thread, and each block uses {sm} bytes of shared memory (static + dynamic; the kernel opts in to "
        "large dynamic shared memory where needed).",
        f"kernel을 {gt['ko']}에서 실행합니다. block당 thread {th}개로 launch하고, ptxas 기준 thread당 register "
        f"{rg}개, block당 shared memory {sm} byte (static + dynamic; 필요하면 큰 dynamic shared memory를 opt-in)를 "
        "사용합니다.",
    )


def working(params: dict[str, Any], threads: int | None = None, regs: int | None = None,
            smem: int | None = None) -> list[Block]:
    """The model's steps as solution blocks (text per language + the formula)."""
    g = gpu_by_key(params["gpu"])
    r = occupancy(g.cc, threads or params["threads"], params["regs"] if regs is None else regs,
                  params["smem"] if smem is None else smem)
    blocks: list[Block] = []
    for step in r.steps:
        blocks.append(p(step.text("en"), step.text("ko")))
        if step.formula and step.code not in ("limit_blocks", "smem_per_sm_default"):
            blocks.append(math(step.formula))
    return blocks


def limiter_choices() -> list[Choice]:
    return [Choice(str(k), dict(LIMITER_NAMES[k])) for k in (Limiter.WARPS, Limiter.REGISTERS,
                                                              Limiter.SHARED_MEMORY, Limiter.BLOCKS)]


def _result(params: dict[str, Any]):
    g = gpu_by_key(params["gpu"])
    return occupancy(g.cc, params["threads"], params["regs"], params["smem"])


class BlocksPerSM(GpuFamily):
    id = "occupancy.blocks_per_sm"
    topic = Topic.OCCUPANCY
    title = t("Blocks per SM and occupancy", "SM당 block 수와 occupancy")

    def make_params(self, rng, difficulty):
        while True:
            params = draw_launch(rng, difficulty)
            if _result(params).fits or difficulty == 3:
                return params

    def compose(self, params):
        r = _result(params)
        prompt = [launch_text(params)]
        if params["difficulty"] < 3:
            prompt.append(facts(gpu_by_key(params["gpu"]).capability))
        prompt.append(p("How many blocks can be resident on one SM at the same time, and what is the occupancy "
                        "(active warps / maximum warps per SM)?",
                        "한 SM에 동시에 상주할 수 있는 block은 몇 개이고, occupancy (active warp / SM당 최대 warp)는 "
                        "얼마입니까?"))
        fields = [integer_field("blocks", "Blocks per SM", "SM당 block 수"),
                  fraction_field("occupancy", "Occupancy", "Occupancy")]
        return prompt, fields, {"blocks": r.blocks_per_sm, "occupancy": r.occupancy}, working(params)


class LimitingResource(GpuFamily):
    id = "occupancy.limiter"
    topic = Topic.OCCUPANCY
    title = t("Limiting resource", "occupancy를 제한하는 자원")

    def make_params(self, rng, difficulty):
        want = rng.choice([Limiter.WARPS, Limiter.REGISTERS, Limiter.SHARED_MEMORY, Limiter.BLOCKS])
        fallback = None
        for _ in range(400):
            params = draw_launch(rng, max(difficulty, 2) if want is not Limiter.WARPS else difficulty)
            if want is Limiter.SHARED_MEMORY:
                params["smem"] = rng.choice([12288, 16384, 24576, 32768, 40960, 49152, 65536])
            r = _result(params)
            if r.fits and len(r.limiters) == 1:
                fallback = fallback or params
                if r.limiter is want:
                    return params
        return fallback

    def compose(self, params):
        r = _result(params)
        prompt = [launch_text(params)]
        if params["difficulty"] < 3:
            prompt.append(facts(gpu_by_key(params["gpu"]).capability))
        prompt.append(p("Which resource limits the number of resident blocks per SM?",
                        "SM당 상주 block 수를 제한하는 자원은 무엇입니까?"))
        fields = [choice_field("limiter", "Limiting resource", "제한 자원", limiter_choices())]
        return prompt, fields, {"limiter": str(r.limiter)}, working(params)


class RegisterBudget(GpuFamily):
    id = "occupancy.register_budget"
    topic = Topic.OCCUPANCY
    title = t("Register budget", "register 예산")

    def make_params(self, rng, difficulty):
        while True:
            params = draw_launch(rng, difficulty)
            g = gpu_by_key(params["gpu"])
            cap = g.capability
            r0 = occupancy(g.cc, params["threads"], 16, params["smem"])
            if not r0.fits:
                continue
            warps = r0.warps_per_block
            target_blocks = rng.randint(1, r0.blocks_per_sm)
            params["target"] = [target_blocks * warps, cap.max_warps_per_sm]  # occupancy as a fraction
            answer = max_registers_for(g.cc, params["threads"], params["smem"],
                                       params["target"][0] / params["target"][1])
            if answer is not None and answer < cap.max_regs_per_thread:
                params.pop("regs")
                return params

    def compose(self, params):
        g = gpu_by_key(params["gpu"])
        cap = g.capability
        num, den = params["target"]
        target = num / den
        answer = max_registers_for(g.cc, params["threads"], params["smem"], target)
        gt = gpu_text(g)
        pct = f"{target * 100:.1f} %"
        prompt = [
            p(f"A kernel runs on {gt['en']} with {params['threads']} threads per block and {params['smem']} bytes of "
              f"shared memory per block. What is the largest number of registers per thread (for example via "
              f"`__launch_bounds__` or `-maxrregcount`) that still gives an occupancy of at least {pct} ({num}/{den} "
              "warps)?",
              f"kernel을 {gt['ko']}에서 block당 thread {params['threads']}개, block당 shared memory "
              f"{params['smem']} byte로 실행합니다. occupancy를 {pct} ({num}/{den} warp) 이상으로 유지하는 thread당 "
              "최대 register 수는 얼마입니까? (예: `__launch_bounds__`나 `-maxrregcount`로 제한)"),
        ]
        if params["difficulty"] < 3:
            prompt.append(facts(cap))
        fields = [integer_field("regs", "Registers per thread", "thread당 register 수")]
        c = self.closed_form(params)
        warps, blocks_needed, per_part, part_regs, per_warp = (c["warps"], c["blocks_needed"], c["per_part"],
                                                                c["part_regs"], c["per_warp"])
        solution = [
            p(f"{num} warps of {warps}-warp blocks means at least {blocks_needed} resident blocks, i.e. "
              f"{blocks_needed * warps} warps, {per_part} per sub-partition.",
              f"warp {num}개를 warp {warps}개짜리 block으로 채우려면 block이 {blocks_needed}개 이상, 즉 warp "
              f"{blocks_needed * warps}개, sub-partition마다 {per_part}개가 필요합니다."),
            math(f"⌈{num} / {warps}⌉ = {blocks_needed};  ⌈{blocks_needed} × {warps} / {cap.sub_partitions}⌉ = "
                 f"{per_part}"),
            p(f"Each sub-partition has {part_regs} registers, so a warp may take at most ⌊{part_regs} / {per_part}⌋ "
              f"rounded down to a multiple of 256 = {per_warp} registers, i.e. {per_warp} / 32 = {per_warp // 32} "
              "per thread.",
              f"sub-partition마다 register가 {part_regs}개이므로 warp 하나는 ⌊{part_regs} / {per_part}⌋를 256의 "
              f"배수로 내린 {per_warp}개까지, 즉 thread당 {per_warp} / 32 = {per_warp // 32}개까지 쓸 수 있습니다."),
            math(f"⌊⌊{part_regs} / {per_part}⌋ / 256⌋ × 256 = {per_warp};  {per_warp} / 32 = {per_warp // 32}"),
            p(f"Check with the model: at {answer} registers the occupancy is "
              f"{occupancy(g.cc, params['threads'], answer, params['smem']).occupancy * 100:.1f} %, at {answer + 1} it "
              f"drops to {occupancy(g.cc, params['threads'], answer + 1, params['smem']).occupancy * 100:.1f} %.",
              f"모델로 확인: register {answer}개에서 occupancy는 "
              f"{occupancy(g.cc, params['threads'], answer, params['smem']).occupancy * 100:.1f} %, {answer + 1}개에서는 "
              f"{occupancy(g.cc, params['threads'], answer + 1, params['smem']).occupancy * 100:.1f} %로 떨어집니다."),
        ]
        return prompt, fields, {"regs": answer}, solution

    @staticmethod
    def closed_form(params) -> dict[str, int]:
        """The register budget without searching: blocks needed -> warps per sub-partition -> regs per warp."""
        cap = gpu_by_key(params["gpu"]).capability
        num, _ = params["target"]
        warps = -(-params["threads"] // cap.warp_size)
        blocks_needed = -(-num // warps)
        per_part = -(-blocks_needed * warps // cap.sub_partitions)
        part_regs = cap.regs_per_sm // cap.sub_partitions
        per_warp = part_regs // per_part // cap.reg_alloc_unit * cap.reg_alloc_unit
        return {"warps": warps, "blocks_needed": blocks_needed, "per_part": per_part, "part_regs": part_regs,
                "per_warp": per_warp, "regs": min(per_warp // 32, cap.max_regs_per_thread)}


class SharedMemoryBudget(GpuFamily):
    id = "occupancy.shared_budget"
    topic = Topic.OCCUPANCY
    title = t("Shared memory budget", "shared memory 예산")

    def make_params(self, rng, difficulty):
        while True:
            params = draw_launch(rng, difficulty)
            g = gpu_by_key(params["gpu"])
            static = params.pop("smem") if difficulty > 1 else 0
            static = min(static, 16384)
            r0 = occupancy(g.cc, params["threads"], params["regs"], static, 0)
            if r0.blocks_per_sm < 1:
                continue
            params["static"] = static
            params["blocks"] = rng.randint(1, r0.blocks_per_sm)
            answer = max_dynamic_smem_for(g.cc, params["threads"], params["regs"], static, params["blocks"])
            if answer is not None and answer >= 1024:
                return params

    def compose(self, params):
        g = gpu_by_key(params["gpu"])
        cap = g.capability
        n, static = params["blocks"], params["static"]
        answer = max_dynamic_smem_for(g.cc, params["threads"], params["regs"], static, n)
        gt = gpu_text(g)
        prompt = [
            p(f"A kernel runs on {gt['en']} with {params['threads']} threads per block, {params['regs']} registers per "
              f"thread and {static} bytes of static shared memory. It opts in to large dynamic shared memory "
              f"(`cudaFuncAttributeMaxDynamicSharedMemorySize`). What is the largest dynamic shared memory per block, "
              f"in bytes, that still lets {n} blocks be resident on one SM?",
              f"kernel을 {gt['ko']}에서 block당 thread {params['threads']}개, thread당 register {params['regs']}개, "
              f"static shared memory {static} byte로 실행합니다. 큰 dynamic shared memory를 opt-in했습니다 "
              f"(`cudaFuncAttributeMaxDynamicSharedMemorySize`). 한 SM에 block {n}개가 상주할 수 있는 block당 최대 "
              "dynamic shared memory는 몇 byte입니까?"),
        ]
        if params["difficulty"] < 3:
            prompt.append(facts(cap))
        fields = [integer_field("dynamic", "Dynamic shared memory per block (bytes)", "block당 dynamic shared memory (byte)",
                                unit="bytes")]
        unit, res = cap.smem_alloc_unit, cap.smem_reserved_per_block
        share = cap.smem_per_sm // n // unit * unit
        closed = self.closed_form(params)
        solution = [
            p(f"{n} blocks share {cap.smem_per_sm} bytes; each block's allocation is a multiple of {unit} B, so a "
              f"block may be allocated at most {share} bytes.",
              f"block {n}개가 {cap.smem_per_sm} byte를 나눠 씁니다. block 할당은 {unit} B의 배수이므로 block당 최대 "
              f"{share} byte입니다."),
            math(f"⌊{cap.smem_per_sm} / {n} / {unit}⌋ × {unit} = {share}"),
            p(f"Take away the {res} B the driver reserves per block and the {static} B of static shared memory"
              + (f", and stay within the per-block maximum of {cap.smem_per_block_optin} B" if n == 1 else "") + ".",
              f"driver 예약 {res} B와 static shared memory {static} B를 빼면"
              + (f" (block당 최대 {cap.smem_per_block_optin} B 이내)" if n == 1 else "") + " 됩니다."),
            math(f"{share} − {res} − {static} = {share - res - static}" + (
                f";  min(…, {cap.smem_per_block_optin} − {static}) = {closed}" if n == 1 else "")),
            p(f"Other limits allow {occupancy(g.cc, params['threads'], params['regs'], static, 0).blocks_per_sm} "
              f"blocks, so shared memory decides: the answer is {answer} bytes.",
              f"다른 자원으로는 block "
              f"{occupancy(g.cc, params['threads'], params['regs'], static, 0).blocks_per_sm}개까지 가능하므로 shared "
              f"memory가 결정합니다. 답은 {answer} byte입니다."),
        ]
        return prompt, fields, {"dynamic": answer}, solution

    @staticmethod
    def closed_form(params) -> int:
        """floor(smem per SM / N) in allocation units, minus the reservation and the static part."""
        cap = gpu_by_key(params["gpu"]).capability
        share = cap.smem_per_sm // params["blocks"] // cap.smem_alloc_unit * cap.smem_alloc_unit
        return min(share - cap.smem_reserved_per_block - params["static"], cap.smem_per_block_optin - params["static"])


class BestBlockSize(GpuFamily):
    id = "occupancy.best_block_size"
    topic = Topic.OCCUPANCY
    title = t("Best block size", "가장 좋은 block 크기")

    def make_params(self, rng, difficulty):
        sizes = [64, 96, 128, 192, 256, 320, 384, 512, 640, 768, 1024]
        while True:
            g = gpu_by_key(rng.choice(target_gpu_keys(difficulty)))
            options = sorted(rng.sample([s for s in sizes if s <= g.capability.max_threads_per_sm], 4))
            params = {"gpu": g.key, "regs": draw_regs(rng, difficulty), "options": options,
                      "smem_per_thread": rng.choice([0, 16, 32, 64, 128] if difficulty > 1 else [0, 16, 32])}
            occs = [self._occ(params, s).occupancy for s in options]
            best = max(occs)
            if best > 0 and occs.count(best) == 1 and len(set(occs)) > 2:
                return params

    @staticmethod
    def _occ(params, threads):
        g = gpu_by_key(params["gpu"])
        return occupancy(g.cc, threads, params["regs"], params["smem_per_thread"] * threads)

    def compose(self, params):
        g = gpu_by_key(params["gpu"])
        gt = gpu_text(g)
        spt = params["smem_per_thread"]
        prompt = [
            p(f"A kernel on {gt['en']} uses {params['regs']} registers per thread and {spt} bytes of shared memory per "
              "thread (so a block of T threads uses T × "
              f"{spt} bytes). Which block size gives the highest occupancy?",
              f"{gt['ko']}에서 실행하는 kernel이 thread당 register {params['regs']}개와 thread당 shared memory {spt} "
              f"byte를 씁니다 (thread T개인 block은 T × {spt} byte). occupancy가 가장 높은 block 크기는?"),
        ]
        if params["difficulty"] < 3:
            prompt.append(facts(g.capability))
        results = {s: self._occ(params, s) for s in params["options"]}
        best = max(results, key=lambda s: results[s].occupancy)
        choices = [Choice(str(s), t(f"{s} threads", f"thread {s}개")) for s in params["options"]]
        fields = [choice_field("threads", "Block size", "block 크기", choices)]
        en = [f"{s} threads: {r.blocks_per_sm} blocks × {r.warps_per_block} warps = {r.active_warps} warps, "
              f"{r.occupancy * 100:.1f} % (limited by {LIMITER_NAMES[r.limiter]['en']})" for s, r in results.items()]
        ko = [f"thread {s}개: block {r.blocks_per_sm}개 × warp {r.warps_per_block}개 = warp {r.active_warps}개, "
              f"{r.occupancy * 100:.1f} % (제한: {LIMITER_NAMES[r.limiter]['ko']})" for s, r in results.items()]
        solution = [p("Compute the occupancy of each option with the same method:",
                      "각 보기의 occupancy를 같은 방법으로 계산합니다:"),
                    items(en, ko),
                    p(f"The best is {best} threads.", f"가장 높은 것은 thread {best}개입니다.")]
        return prompt, fields, {"threads": str(best)}, solution


class CoResidence(GpuFamily):
    id = "occupancy.co_residence"
    topic = Topic.OCCUPANCY
    title = t("Can the blocks co-reside?", "block들이 동시에 상주할 수 있는가?")

    def make_params(self, rng, difficulty):
        if difficulty == 1 and rng.random() < 0.3:
            # The seed's example: two 32 x 32 blocks on cc 8.6.
            return {"gpu": "rtx-3090", "threads": 1024, "regs": 32, "smem": 0, "k": 2, "block_2d": [32, 32]}
        while True:
            params = draw_launch(rng, difficulty)
            r = _result(params)
            if r.blocks_per_sm < 1:
                continue
            params["k"] = max(2, r.blocks_per_sm + rng.choice([-1, 0, 1]))
            return params

    def compose(self, params):
        r = _result(params)
        k = params["k"]
        shape = params.get("block_2d")
        prompt = [launch_text(params)]
        if shape:
            prompt.append(p(f"(The blocks are {shape[0]} × {shape[1]} threads.)",
                            f"(block은 {shape[0]} × {shape[1]} thread입니다.)"))
        if params["difficulty"] < 3:
            prompt.append(facts(gpu_by_key(params["gpu"]).capability))
        prompt.append(p(f"Can {k} blocks of this kernel be resident on one SM at the same time?",
                        f"이 kernel의 block {k}개가 한 SM에 동시에 상주할 수 있습니까?"))
        choices = [Choice("yes", t("Yes", "예")), Choice("no", t("No", "아니오"))]
        fields = [choice_field("fits", "Answer", "답", choices)]
        verdict = "yes" if k <= r.blocks_per_sm else "no"
        solution = working(params) + [
            p(f"{r.blocks_per_sm} blocks fit, so {k} blocks " + ("can" if verdict == "yes" else "cannot") + " co-reside.",
              f"block {r.blocks_per_sm}개까지 들어가므로 {k}개는 동시에 상주할 수 "
              + ("있습니다." if verdict == "yes" else "없습니다."))]
        return prompt, fields, {"fits": verdict}, solution


class CooperativeGrid(GpuFamily):
    id = "occupancy.cooperative_grid"
    topic = Topic.OCCUPANCY
    title = t("Cooperative launch grid limit", "cooperative launch의 grid 한도")

    def make_params(self, rng, difficulty):
        while True:
            params = draw_launch(rng, difficulty)
            if _result(params).fits:
                return params

    def compose(self, params):
        g = gpu_by_key(params["gpu"])
        r = _result(params)
        prompt = [
            launch_text(params),
            p("The kernel calls `cg::this_grid().sync()` and is launched with `cudaLaunchCooperativeKernel`, which "
              "requires every block of the grid to be resident at once. What is the largest grid (number of blocks) "
              "the launch accepts?",
              "kernel은 `cg::this_grid().sync()`를 호출하며 `cudaLaunchCooperativeKernel`로 launch합니다. 이 launch는 "
              "grid의 모든 block이 동시에 상주해야 합니다. launch가 받아들이는 최대 grid 크기 (block 수)는?"),
        ]
        if params["difficulty"] < 3:
            prompt.append(facts(g.capability))
        fields = [integer_field("grid", "Largest grid (blocks)", "최대 grid (block 수)")]
        answer = r.blocks_per_sm * g.sm_count
        solution = working(params) + [
            p(f"Blocks per SM × SMs = {r.blocks_per_sm} × {g.sm_count} = {answer} blocks; a larger grid is rejected "
              "with cudaErrorCooperativeLaunchTooLarge.",
              f"SM당 block × SM 수 = {r.blocks_per_sm} × {g.sm_count} = {answer}개; 더 큰 grid는 "
              "cudaErrorCooperativeLaunchTooLarge로 거부됩니다."),
            math(f"{r.blocks_per_sm} × {g.sm_count} = {answer}"),
        ]
        return prompt, fields, {"grid": answer}, solution


FAMILIES = [BlocksPerSM(), LimitingResource(), RegisterBudget(), SharedMemoryBudget(), BestBlockSize(), CoResidence(),
            CooperativeGrid()]
