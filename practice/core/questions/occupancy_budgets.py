"""The occupancy budget families: the most registers per thread, or the most dynamic shared memory per
block, that still gives a target occupancy (each checked against the model's search in the tests)."""
from __future__ import annotations

from problems.core.gpus import gpu as gpu_by_key
from problems.core.occupancy import max_dynamic_smem_for, max_registers_for, occupancy

from .base import Topic, integer_field, math, p, t
from .occupancy_base import GpuFamily, draw_launch, facts, gpu_text


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
              f"커널을 {gt['ko']}에서 block당 thread {params['threads']}개, block당 shared memory "
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
              f"커널을 {gt['ko']}에서 block당 thread {params['threads']}개, thread당 register {params['regs']}개, "
              f"static shared memory {static} byte로 실행합니다. 큰 dynamic shared memory 사용을 명시적으로 허용했습니다 "
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
