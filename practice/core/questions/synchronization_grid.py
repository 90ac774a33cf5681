"""The grid-wide synchronization family: what grid.sync() does under an ordinary or a cooperative launch,
its answers from the occupancy model (how many blocks can be resident at once)."""
from __future__ import annotations

from problems.core.gpus import gpu as gpu_by_key
from problems.core.occupancy import occupancy

from ..answers import Choice
from . import snippets as S
from .base import Family, Topic, choice_field, code, math, p, t


GRID_CHOICES = [
    Choice("works", t("It synchronizes the whole grid and completes", "grid 전체가 동기화되고 끝까지 실행됨")),
    Choice("not_guaranteed", t("It may complete on this GPU, but nothing guarantees it (an ordinary launch does not "
                               "promise that all blocks are resident at once)",
                               "이 GPU에서는 끝날 수도 있지만 보장되지 않음 (<<<>>>로 하는 일반 실행은 모든 block의 동시 상주를 "
                               "약속하지 않음)")),
    Choice("rejected", t("The launch is rejected (too many blocks for a cooperative launch)",
                         "실행이 거부됨 (cooperative launch에 block이 너무 많음)")),
    Choice("hangs", t("It hangs: not every block can be resident, so some never arrive",
                      "멈춤: 모든 block이 동시에 상주할 수 없어 일부가 도착하지 못함")),
    Choice("trap", t("The kernel fails at run time (grid.sync() needs a cooperative launch)",
                     "실행 중 실패 (grid.sync()는 cooperative launch가 필요)")),
    Choice("block_only", t("It does not synchronize across blocks (only within each block)",
                           "block 사이는 동기화하지 않음 (각 block 안에서만)")),
]


# The Korean words of the grid-sync snippets' comments, longest first (one contains another).
GRID_COMMENTS = {
    "meant to wait for every block": "모든 block을 기다리려는 의도",
    "the host resets it to 0 before each launch": "host가 커널을 실행할 때마다 먼저 0으로 되돌림",
    "phase1's writes visible to every block": "phase1의 쓰기를 모든 block에 보이게 함",
    "wait for every block": "모든 block을 기다림",
    "an ordinary launch": "일반 실행",
    "// host, one stream:": "// host 코드, stream 하나:",
    "// host: ": "// host 코드: ",
}


class GridSync(Family):
    id = "synchronization.grid_sync"
    topic = Topic.SYNCHRONIZATION
    title = t("Synchronizing a whole grid", "grid 전체 동기화")

    version = 2  # 2: the spin barrier keyed "not guaranteed" (with its fence and reset), a structure per difficulty
    SCENARIOS = ["cooperative", "spin_barrier", "plain_grid_sync", "syncthreads", "two_kernels"]
    # 1: what synchronizes a grid at all (no arithmetic); 2: cooperative launches and their rule;
    # 3: co-residency arithmetic from the occupancy model (a cooperative launch or a spin barrier).
    LEVELS = {1: ["syncthreads", "two_kernels", "plain_grid_sync"], 2: ["cooperative", "plain_grid_sync", "syncthreads"],
              3: ["cooperative", "spin_barrier"]}

    def make_params(self, rng, difficulty):
        scenario = rng.choice(self.LEVELS[difficulty])
        g = gpu_by_key(rng.choice(["a100", "h100-sxm", "h200", "rtx-4090", "l4", "rtx-3090"]))
        threads = rng.choice([256, 512, 1024])
        regs = rng.choice([32, 40, 64])
        r = occupancy(g.cc, threads, regs, 0)
        cap = r.blocks_per_sm * g.sm_count
        grid = rng.choice([cap, cap + rng.randint(1, g.sm_count), max(g.sm_count, cap - rng.randint(1, g.sm_count)),
                           rng.choice([2000, 4096])])
        return {"scenario": scenario, "gpu": g.key, "threads": threads, "regs": regs, "grid": grid}

    def compose(self, params):
        g = gpu_by_key(params["gpu"])
        r = occupancy(g.cc, params["threads"], params["regs"], 0)
        cap = r.blocks_per_sm * g.sm_count
        grid, sc = params["grid"], params["scenario"]
        fits = grid <= cap
        launch = (f"{grid} blocks of {params['threads']} threads ({params['regs']} registers per thread) on an {g.name} "
                  f"({g.sm_count} SMs)")
        launch_ko = (f"{g.name} (SM {g.sm_count}개)에서 block {grid}개 × thread {params['threads']}개 "
                     f"(thread당 register {params['regs']}개)")
        sources = {
            "cooperative": ("auto grid = cg::this_grid();\nphase1(data);\ngrid.sync();\nphase2(data);\n"
                            "// host: cudaLaunchCooperativeKernel((void*)kernel, blocks, threads, args);"),
            "spin_barrier": ("__device__ unsigned int arrived = 0;   // the host resets it to 0 before each launch\n"
                             "...\nphase1(data);\n__threadfence();      // phase1's writes visible to every block\n"
                             "__syncthreads();\nif (threadIdx.x == 0) {\n    atomicAdd(&arrived, 1);\n"
                             "    while (atomicAdd(&arrived, 0) < gridDim.x) { }   // wait for every block\n}\n"
                             "__syncthreads();\nphase2(data);\n"
                             "// host: cudaMemcpyToSymbol(arrived, &zero, sizeof zero); kernel<<<blocks, threads>>>(...);"),
            "plain_grid_sync": ("auto grid = cg::this_grid();\nphase1(data);\ngrid.sync();\nphase2(data);\n"
                                "// host: kernel<<<blocks, threads>>>(...);   // an ordinary launch"),
            "syncthreads": "phase1(data);\n__syncthreads();   // meant to wait for every block\nphase2(data);",
            "two_kernels": ("// host, one stream:\nphase1_kernel<<<blocks, threads>>>(data);\n"
                            "phase2_kernel<<<blocks, threads>>>(data);"),
        }
        answer = {"cooperative": "works" if fits else "rejected",
                  "spin_barrier": "not_guaranteed" if fits else "hangs",
                  "plain_grid_sync": "trap", "syncthreads": "block_only", "two_kernels": "works"}[sc]
        prompt = [p(f"phase2 must see everything phase1 wrote, in every block. The launch is {launch}.",
                    f"phase2는 모든 block에서 phase1이 쓴 것을 전부 봐야 합니다. 실행 구성은 {launch_ko}입니다."),
                  code(sources[sc], ko={en: ko for en, ko in GRID_COMMENTS.items() if en in sources[sc]}),
                  p("What happens?", "어떻게 됩니까?")]
        fields = [choice_field("result", "Result", "결과", GRID_CHOICES)]
        occ = [p(f"Resident blocks: {r.blocks_per_sm} per SM × {g.sm_count} SMs = {cap}; the grid has {grid}.",
                 f"동시에 상주 가능한 block: SM당 {r.blocks_per_sm}개 × SM {g.sm_count}개 = {cap}개; grid는 {grid}개."),
               math(f"{r.blocks_per_sm} × {g.sm_count} = {cap} {'≥' if fits else '<'} {grid}")]
        why = {
            "cooperative": occ + [p("A cooperative launch checks that every block can be resident at once"
                                    + (" — it can, so grid.sync() works." if fits else
                                       " — it cannot, so the launch fails with cudaErrorCooperativeLaunchTooLarge."),
                                    "cooperative launch는 모든 block이 동시에 상주할 수 있는지 검사합니다"
                                    + (" — 가능하므로 grid.sync()가 동작합니다." if fits else
                                       " — 불가능하므로 cudaErrorCooperativeLaunchTooLarge로 실패합니다."))],
            "spin_barrier": occ + [p(("Every block can be resident at once, so on this GPU every block arrives and the "
                                      "spin ends (measured on an H200 with 264 blocks). But an ordinary launch does not "
                                      "promise co-residency: another kernel on the GPU, MPS or a different GPU can leave "
                                      "a block waiting to start, and then it hangs. The fence and the reset counter are "
                                      "needed even so. Only a cooperative launch (grid.sync()) guarantees it." if fits else
                                      "Blocks that are resident spin forever waiting for blocks that cannot start "
                                      "until a resident block finishes: the kernel hangs (measured on an H200 with "
                                      "2000 blocks of 1024 threads)."),
                                     ("모든 block이 동시에 상주할 수 있으므로 이 GPU에서는 모든 block이 도착하고 대기 loop가 "
                                      "끝납니다 (H200에서 264 block으로 측정). 그러나 <<<>>>로 하는 일반 실행은 동시 상주를 약속하지 "
                                      "않습니다: GPU의 다른 커널, MPS, 다른 GPU 때문에 시작하지 못한 block이 생기면 멈춥니다. "
                                      "fence와 counter 초기화는 그래도 필요합니다. 보장하는 것은 cooperative launch "
                                      "(grid.sync())뿐입니다." if fits else
                                      "상주한 block은 아직 시작하지 못한 block을 영원히 돌며 기다리고, 그 block은 상주한 "
                                      "block이 끝나야 시작할 수 있습니다: 멈춥니다 (H200에서 1024 thread block 2000개로 측정)."))],
            "plain_grid_sync": [p("grid.sync() is only valid in a kernel launched with cudaLaunchCooperativeKernel; with "
                                  "<<<>>> it traps (measured on an H200: CUDA_ERROR_LAUNCH_FAILED).",
                                  "grid.sync()는 cudaLaunchCooperativeKernel로 실행한 커널에서만 유효합니다. <<<>>>로 "
                                  "실행하면 trap이 납니다 (H200 측정: CUDA_ERROR_LAUNCH_FAILED).")],
            "syncthreads": [p("__syncthreads() synchronizes the threads of one block only; blocks are independent and "
                              "run in no guaranteed order.",
                              "__syncthreads()는 한 block의 thread만 동기화합니다. block들은 서로 독립이고 실행 순서가 "
                              "보장되지 않습니다.")],
            "two_kernels": [p("Kernels in one stream run in order: phase2_kernel starts after every block of "
                              "phase1_kernel has finished. The kernel boundary is a grid-wide barrier for any grid size.",
                              "같은 stream의 커널은 순서대로 실행되므로 phase1_kernel의 모든 block이 끝난 뒤에 "
                              "phase2_kernel이 시작합니다. 커널 경계는 grid 크기와 상관없는 grid 전체 barrier입니다.")],
        }[sc]
        return prompt, fields, {"result": answer}, why
