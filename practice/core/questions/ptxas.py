"""Occupancy from a ptxas report: read the registers and shared memory off `ptxas info` lines (nvcc -Xptxas -v)
and predict the kernel's blocks per SM on the course's target GPU.

Source: CONTENT.md's "predict your own kernel's occupancy from ptxas" (seeds/000 lines 561–687, where the
worked examples start from ptxas' register count) and the exam kind of ECE408 quizzes that print a ptxas line.
Answers come from the occupancy model (problems.core.occupancy); spill stores and cmem do not change occupancy.
"""
from __future__ import annotations

from problems.core.gpus import gpu as gpu_by_key
from problems.core.occupancy import max_registers_for, occupancy

from .base import Family, Topic, code, fraction_field, integer_field, math, p, t
from .occupancy import GpuFamily, facts, gpu_text, target_gpu_keys, working

STATIC_POOL = [0, 1024, 2048, 4096, 6144, 8192, 12288, 16384, 24576]
DYNAMIC_POOL = [1024, 4096, 8192, 16384, 32768, 49152, 65536]


def _blocks(n: int) -> str:
    return f"{n} block" + ("" if n == 1 else "s")


def report(sm: str, regs: int, static: int, spill: int, cmem: int) -> str:
    """The ptxas -v lines for one kernel `_Z6kernelPKfPfi` compiled for `sm` ("sm_86")."""
    name = "_Z6kernelPKfPfi"
    smem = f", {static} bytes smem" if static else ""
    return (f"ptxas info    : Compiling entry function '{name}' for '{sm}'\n"
            f"ptxas info    : Function properties for {name}\n"
            f"    {spill * 2} bytes stack frame, {spill} bytes spill stores, {spill} bytes spill loads\n"
            f"ptxas info    : Used {regs} registers, used 1 barriers{smem}, {cmem} bytes cmem[0]")


class PtxasOccupancy(GpuFamily):
    id = "occupancy.ptxas"
    topic = Topic.OCCUPANCY
    title = t("Occupancy from a ptxas report", "ptxas 보고서로 occupancy 구하기")

    def make_params(self, rng, difficulty):
        kind = {1: "registers", 2: "launch", 3: "budget"}[difficulty]
        while True:
            g = gpu_by_key(rng.choice(target_gpu_keys(min(difficulty + 1, 3))))
            threads = rng.choice([x for x in (64, 128, 192, 256, 384, 512, 768, 1024)
                                  if x <= g.capability.max_threads_per_sm])
            regs = rng.randint(16, 128) if difficulty > 1 else rng.choice(range(24, 97, 8)) + rng.choice([0, 0, 1, 2, 6])
            static = rng.choice(STATIC_POOL) if difficulty > 1 else 0
            dynamic = rng.choice(DYNAMIC_POOL) if difficulty == 2 else 0
            params = {"kind": kind, "gpu": g.key, "threads": threads, "regs": regs, "static": static,
                      "dynamic": dynamic, "smem": static + dynamic, "spill": rng.choice([0, 0, 8, 24, 40]),
                      "cmem": rng.randrange(352, 400, 4)}
            r = occupancy(g.cc, threads, regs, static, dynamic)
            if not r.fits:
                continue
            if kind == "budget":
                more = r.blocks_per_sm + 1
                if more * -(-threads // 32) > g.capability.max_warps_per_sm or more > g.capability.max_blocks_per_sm:
                    continue
                want = more * -(-threads // 32) / g.capability.max_warps_per_sm
                if max_registers_for(g.cc, threads, static, want) is None:
                    continue
                params["want_blocks"] = more
            return params

    def compose(self, params):
        g = gpu_by_key(params["gpu"])
        cap = g.capability
        th, rg, st, dyn = params["threads"], params["regs"], params["static"], params["dynamic"]
        sm = "sm_" + g.cc.replace(".", "")
        gt = gpu_text(g)
        r = occupancy(g.cc, th, rg, st, dyn)
        launch = f"kernel<<<grid, {th}{', ' + str(dyn) if dyn else ''}>>>(in, out, n);"
        prompt = [
            p(f"You compile a kernel for {gt['en']} with `nvcc -arch={sm} -Xptxas -v` and get:",
              f"커널을 {gt['ko']}용으로 `nvcc -arch={sm} -Xptxas -v`로 컴파일하면 다음이 나옵니다."),
            code(report(sm, rg, st, params["spill"], params["cmem"])),
            code(launch),
        ]
        if params["kind"] != "budget":
            if dyn:
                prompt.append(p(f"The launch adds {dyn} bytes of dynamic shared memory per block (the kernel opts in to "
                                "large dynamic shared memory where needed).",
                                f"실행 구성은 block마다 dynamic shared memory {dyn} byte를 더합니다(필요하면 큰 dynamic shared "
                                "memory 사용을 명시적으로 허용)."))
            prompt += [facts(cap),
                       p("How many blocks of this launch can be resident on one SM at once, and what is the occupancy "
                         "(active warps / maximum warps per SM)?",
                         "이렇게 실행한 커널의 block은 한 SM에 동시에 몇 개 상주할 수 있고, occupancy (active warp / SM당 최대 warp)는 "
                         "얼마입니까?")]
            fields = [integer_field("blocks", "Blocks per SM", "SM당 block 수"),
                      fraction_field("occupancy", "Occupancy", "Occupancy")]
            used = p(f"From the report: {rg} registers per thread and {st} B of static shared memory"
                     f"{f', plus {dyn} B dynamic from the launch' if dyn else ''}; the spill and cmem figures do not "
                     "enter occupancy.",
                     f"보고서에서 thread당 register {rg}개, static shared memory {st} B"
                     f"{f', 실행 구성에서 dynamic {dyn} B 추가' if dyn else ''}; spill과 cmem 값은 occupancy와 무관합니다.")
            return prompt, fields, {"blocks": r.blocks_per_sm, "occupancy": r.occupancy}, [used, *working(params)]
        more = params["want_blocks"]
        want = more * -(-th // 32) / cap.max_warps_per_sm
        best = max_registers_for(g.cc, th, st, want)
        prompt += [facts(cap),
                   p(f"At these resources {_blocks(r.blocks_per_sm)} fit per SM. What is the largest register count per "
                     f"thread (the value you would give `-maxrregcount` or reach with `__launch_bounds__`) that lets "
                     f"{more} blocks be resident, and what occupancy does that give?",
                     f"지금 자원으로는 SM당 block {r.blocks_per_sm}개가 들어갑니다. block {more}개가 상주하게 하는 thread당 "
                     "register 수의 최댓값(`-maxrregcount`에 주거나 `__launch_bounds__`로 맞출 값)은 얼마이고, 그때 "
                     "occupancy는 얼마입니까?")]
        fields = [integer_field("regs", "Registers per thread", "thread당 register 수"),
                  fraction_field("occupancy", "Occupancy", "Occupancy")]
        r2 = occupancy(g.cc, th, best, st, 0)
        solution = [p(f"Now: {rg} registers → {_blocks(r.blocks_per_sm)}. Look for the largest count whose warp allocation "
                      f"(rounded up to 256 per warp) still lets {more} blocks fit:",
                      f"지금: register {rg}개 → block {r.blocks_per_sm}개. warp당 할당(256 단위 올림)으로 block {more}개가 "
                      "들어가는 가장 큰 값을 찾습니다."),
                    math(f"{best} registers: ⌈{best} × 32 / 256⌉ × 256 = {-(-best * 32 // 256) * 256} per warp → "
                         f"{_blocks(r2.blocks_per_sm)};  {best + 1} registers → fewer"),
                    *working(params, regs=best)]
        return prompt, fields, {"regs": best, "occupancy": r2.occupancy}, solution


FAMILIES: tuple[Family, ...] = (PtxasOccupancy(),)
