"""Occupancy question families. Every answer comes from the occupancy model (problems.core.occupancy);
the worked solutions that use a closed form are checked against the model's search in the tests.

Source: seeds/000 lines 561–687 and 1078–1139 (blocks per SM, the limiting resource, registers and
shared memory per block; cc 8.6 in its worked examples) and CONTENT.md's "Problem ideas" for
occupancy; the exam kind is PMPP's and ECE408's occupancy exercises (the textbook model is the
separate occupancy.textbook family)."""
from __future__ import annotations

from problems.core.gpus import gpu as gpu_by_key
from problems.core.occupancy import LIMITER_NAMES, Limiter, occupancy

from ..answers import Choice
from .base import Block, Topic, choice_field, fraction_field, integer_field, items, math, p, t
from .occupancy_base import (  # noqa: F401  (re-exported: ptxas.py and the tests read them here)
    GPU_POOL, SMEM_POOL, THREADS_POOL, GpuFamily, _result, draw_launch, draw_regs, facts, gpu_text, launch_text,
    limiter_choices, target_gpu_keys, working,
)
from .occupancy_budgets import RegisterBudget, SharedMemoryBudget


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
              f"{gt['ko']}에서 실행하는 커널이 thread당 register {params['regs']}개와 thread당 shared memory {spt} "
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
    version = 2  # 2: the seed's cc 8.6 example only where the course's target GPU allows an RTX 3090

    def make_params(self, rng, difficulty):
        if difficulty == 1 and "rtx-3090" in target_gpu_keys(difficulty) and rng.random() < 0.3:
            # The seed's example: two 32 x 32 blocks on cc 8.6 (not for a course that targets another cc).
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
                        f"이 커널의 block {k}개가 한 SM에 동시에 상주할 수 있습니까?"))
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
              "커널은 `cg::this_grid().sync()`를 호출하며 `cudaLaunchCooperativeKernel`로 실행합니다. 이 실행 방식(cooperative launch)은 "
              "grid의 모든 block이 동시에 상주해야 합니다. 이 방식으로 실행할 수 있는 최대 grid 크기 (block 수)는?"),
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
