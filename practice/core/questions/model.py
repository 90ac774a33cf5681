"""Memory spaces and the programming model: where a variable lives and how many instances a launch makes,
where functions run, what blocks the host, pageable vs pinned copies.

Sources: seeds/000's programming-model notes (host/device, `__global__` kernels, asynchronous launches and
the blocking cudaMemcpy, lines 1322–1392 and the host-side notes at the end of the synchronization post);
the exam kinds of PMPP ch. 2 and 5 (function qualifiers; the variable-declaration table: memory, scope,
lifetime) and the Coursera heterogeneous-programming quiz (pinned memory, what blocks).
"""
from __future__ import annotations

from ..answers import Choice
from ..korean import particle
from .base import Family, Topic, choice_field, code, integer_field, math, p, t

KERNEL = """__constant__ float coeff[16];
__device__ int counter;

__global__ void k(const float* in, float* out, int n, int j) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // i
    float acc[{K}];                                  // acc (indexed by the runtime value j)
    __shared__ float tile[{S}];                       // tile
    ...
    acc[j % {K}] += in[i] * coeff[j % 16];
}"""

SPACES = ["register", "shared", "global", "constant"]
SPACE_TEXT = {
    "register": t("a register (one per thread)", "register (thread마다 하나)"),
    "shared": t("shared memory (one per block)", "shared memory (block마다 하나)"),
    "global": t("global memory (one per device, lives across launches)",
                "global memory (device에 하나, 여러 번의 커널 실행에 걸쳐 유지)"),
    "constant": t("constant memory (one per device, read-only in kernels)", "constant memory (device에 하나, 커널에서는 읽기 전용)"),
}
VARIABLE_OF = {"register": "i", "shared": "tile", "global": "counter", "constant": "coeff"}


class Scopes(Family):
    id = "memory.scopes"
    topic = Topic.MEMORY
    title = t("Memory spaces and instance counts", "memory 공간과 instance 수")

    def make_params(self, rng, difficulty):
        K, S = rng.choice([4, 8, 16]), rng.choice([128, 256, 1024])
        base = {"k": K, "s": S, "grid": rng.randrange(20, 5000), "block": rng.choice([128, 256, 512])}
        if difficulty == 1:
            order = SPACES[:]
            rng.shuffle(order)
            return {"kind": "space", **base, "space": rng.choice(SPACES), "order": order}
        return {"kind": "count" if difficulty == 2 else "bytes", **base}

    def compose(self, params):
        K, S, G, T = params["k"], params["s"], params["grid"], params["block"]
        src = code(KERNEL.replace("{K}", str(K)).replace("{S}", str(S)),
                   ko={"acc (indexed by the runtime value j)": "acc (실행 중에 정해지는 값 j로 인덱싱)"})
        launch = p(f"The kernel below is launched with {G} blocks of {T} threads.",
                   f"아래 커널을 thread {T}개짜리 block {G}개로 실행합니다.")
        if params["kind"] == "space":
            var = VARIABLE_OF[params["space"]]
            choices = [Choice(s, SPACE_TEXT[s]) for s in params["order"]]
            prompt = [launch, src, p(f"Where does `{var}` live (assuming the compiler keeps scalars in registers)?",
                                     f"`{var}`{particle(var, '는')} 어디에 있습니까(컴파일러가 scalar를 register에 둔다고 가정)?")]
            fields = [choice_field("space", "Memory space", "memory 공간", choices)]
            answer = {"space": params["space"]}
            solution = [p("Automatic scalars live in registers, one per thread; `__shared__` variables in shared memory, "
                          "one per block; `__device__` variables in global memory and `__constant__` variables in "
                          "constant memory, one per device for the application's lifetime.",
                          "자동 scalar 변수는 thread마다 하나씩 register에, `__shared__` 변수는 block마다 하나씩 shared "
                          "memory에, `__device__` 변수는 global memory에, `__constant__` 변수는 constant memory에 device마다 "
                          "하나씩 application이 끝날 때까지 있습니다.")]
            return prompt, fields, answer, solution
        if params["kind"] == "count":
            prompt = [launch, src, p("How many instances of `i`, of `tile` and of `counter` exist over the whole launch?",
                                     "grid 전체에서 `i`, `tile`, `counter`의 instance는 각각 몇 개입니까?")]
            fields = [integer_field("i", "Instances of i", "i의 instance 수"),
                      integer_field("tile", "Instances of tile", "tile의 instance 수"),
                      integer_field("counter", "Instances of counter", "counter의 instance 수")]
            answer = {"i": G * T, "tile": G, "counter": 1}
            solution = [math(f"i: one per thread = {G} × {T} = {G * T}"), math(f"tile: one per block = {G}"),
                        math("counter: one per device = 1")]
            return prompt, fields, answer, solution
        prompt = [launch, src, p("`acc` is indexed with a value known only at run time, so the compiler places it in "
                                 "local memory (per-thread, in device memory). Over the whole launch, how many bytes of "
                                 "local memory does `acc` take, and how many bytes of shared memory does `tile` take?",
                                 "`acc`는 실행 중에야 알 수 있는 값을 index로 쓰므로 컴파일러가 local memory(thread별, device "
                                 "memory에 있음)에 둡니다. grid 전체에서 `acc`가 차지하는 local memory와 `tile`이 차지하는 "
                                 "shared memory는 각각 몇 byte입니까?")]
        fields = [integer_field("local", "acc: local-memory bytes", "acc: local memory byte", unit="bytes"),
                  integer_field("shared", "tile: shared-memory bytes", "tile: shared memory byte", unit="bytes")]
        answer = {"local": G * T * K * 4, "shared": G * S * 4}
        solution = [math(f"acc: {G} × {T} threads × {K} × 4 B = {G * T * K * 4} B"),
                    math(f"tile: {G} blocks × {S} × 4 B = {G * S * 4} B"),
                    p("A register array needs indices the compiler can resolve; a runtime index forces local memory "
                      "(ptxas reports it as a stack frame or spill).",
                      "register 배열은 컴파일러가 index를 확정할 수 있어야 합니다. 실행 시간 index는 local memory를 강제합니다"
                      "(ptxas가 stack frame이나 spill로 보고합니다).")]
        return prompt, fields, answer, solution


# (question, right answer, three wrong answers), per difficulty.
FACTS = {
    1: [
        (t("Where does a `__global__` function run, and where is it launched from?",
           "`__global__` 함수는 어디서 실행되고 어디서 호출됩니까?"),
         t("On the device; launched from host code (or from device code with dynamic parallelism)",
           "device에서 실행; host 코드에서 호출 (dynamic parallelism이면 device 코드에서도)"),
         [t("On the host; called from device code", "host에서 실행; device 코드에서 호출"),
          t("On the device; callable only from other device functions", "device에서 실행; 다른 device 함수에서만 호출"),
          t("On both; the compiler picks at run time", "양쪽 모두; 실행 시간에 컴파일러가 선택")]),
        (t("Where does a `__device__` function run, and who may call it?", "`__device__` 함수는 어디서 실행되고 누가 호출할 수 있습니까?"),
         t("On the device; only from device code (kernels and other device functions)",
           "device에서 실행; device 코드(커널과 다른 device 함수)에서만 호출"),
         [t("On the device; from host code with <<<...>>>", "device에서 실행; host 코드에서 <<<...>>>로 호출"),
          t("On the host; from kernels", "host에서 실행; 커널에서 호출"),
          t("On the host and the device; from either", "host와 device 모두에서 실행; 어디서나 호출")]),
        (t("What does `__host__ __device__` on a function mean?", "함수에 붙은 `__host__ __device__`는 무슨 뜻입니까?"),
         t("It is compiled twice, so host code and device code can each call their own version",
           "두 번 컴파일되어 host 코드와 device 코드가 각자의 version을 호출할 수 있음"),
         [t("It runs on the device but is launched from the host", "device에서 실행되지만 host에서 호출됨"),
          t("It is not allowed: a function has exactly one qualifier", "허용되지 않음: 함수의 qualifier는 하나뿐"),
          t("It runs on the host and copies its result to the device", "host에서 실행되고 결과를 device로 복사함")]),
        (t("What must a `__global__` function return?", "`__global__` 함수의 반환형은 무엇이어야 합니까?"),
         t("void: results go back through memory", "void: 결과는 memory로 돌려줌"),
         [t("int: the error code of the launch", "int: 커널 실행의 error code"),
          t("Any type; the host receives it when the kernel ends", "아무 type; 커널이 끝나면 host가 받음"),
          t("cudaError_t", "cudaError_t")]),
    ],
    2: [
        (t("The host executes `k<<<g, b>>>(...);` on the default stream. When does the call return?",
           "host가 default stream에서 `k<<<g, b>>>(...);`를 실행합니다. 호출은 언제 반환합니까?"),
         t("Right after the launch is queued, usually before the kernel finishes",
           "커널 실행이 queue에 들어가자마자, 보통 커널이 끝나기 전"),
         [t("When every thread of the kernel has finished", "커널의 모든 thread가 끝났을 때"),
          t("When the first block has finished", "첫 block이 끝났을 때"),
          t("Only after cudaDeviceSynchronize() is called inside the kernel", "커널 안에서 cudaDeviceSynchronize()를 부른 뒤")]),
        (t("After a kernel launch, the host calls `cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost)` on the default "
           "stream. What happens?",
           "커널을 실행한 뒤 host가 default stream에서 `cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost)`를 부릅니다. "
           "무슨 일이 일어납니까?"),
         t("The copy waits for the kernel, and the call returns when the data is in h", "copy가 커널을 기다리고, 데이터가 h에 들어오면 반환"),
         [t("It copies immediately, possibly reading d before the kernel wrote it", "즉시 복사하므로 커널이 쓰기 전의 d를 읽을 수 있음"),
          t("It returns at once and copies in the background", "즉시 반환하고 background에서 복사"),
          t("It fails unless cudaDeviceSynchronize() was called first", "먼저 cudaDeviceSynchronize()를 부르지 않으면 실패")]),
        (t("A host timer is read just before and just after `k<<<g, b>>>(...);` with no synchronization. What does the "
           "difference measure?",
           "동기화 없이 `k<<<g, b>>>(...);` 직전과 직후에 host timer를 읽습니다. 그 차이는 무엇을 잽니까?"),
         t("Mostly the launch overhead, not the kernel's run time", "커널 실행 시간이 아니라 주로 실행 호출의 overhead"),
         [t("The kernel's run time", "커널의 실행 시간"),
          t("The kernel's run time plus the copy of its results", "커널 실행 시간과 결과 복사 시간"),
          t("The time of the slowest block", "가장 느린 block의 시간")]),
        (t("What does `cudaDeviceSynchronize()` do?", "`cudaDeviceSynchronize()`는 무엇을 합니까?"),
         t("Blocks the host until all previously issued work on the device has completed",
           "device에 앞서 낸 작업이 모두 끝날 때까지 host를 멈춤"),
         [t("Synchronizes the threads of each block like __syncthreads()", "block마다 thread를 __syncthreads()처럼 동기화"),
          t("Copies all device buffers back to the host", "모든 device buffer를 host로 복사"),
          t("Waits only for the most recent kernel on other streams", "다른 stream의 가장 최근 커널만 기다림")]),
    ],
    3: [
        (t("What must hold for a host↔device copy to overlap with a kernel?", "host↔device copy가 커널과 겹치려면 무엇이 필요합니까?"),
         t("Pinned (page-locked) host memory and cudaMemcpyAsync in a stream other than the kernel's",
           "pinned(page-locked) host memory, 그리고 커널과 다른 stream에서의 cudaMemcpyAsync"),
         [t("Any host memory, as long as cudaMemcpy is used", "cudaMemcpy만 쓰면 어떤 host memory든 됨"),
          t("Pageable host memory allocated with malloc and the default stream", "malloc으로 할당한 pageable memory와 default stream"),
          t("A kernel launched with more blocks than SMs", "SM보다 많은 block으로 실행한 커널")]),
        (t("Why is a copy from pageable host memory slower than one from pinned memory?",
           "pageable host memory에서의 copy가 pinned memory에서보다 느린 이유는 무엇입니까?"),
         t("The driver first copies the data into a pinned staging buffer, because the DMA engine needs page-locked memory",
           "DMA engine은 page-locked memory가 필요하므로 driver가 먼저 데이터를 pinned staging buffer로 복사하기 때문"),
         [t("Pageable memory is stored on disk", "pageable memory는 disk에 저장되어 있기 때문"),
          t("The GPU reads pageable memory one byte at a time", "GPU가 pageable memory를 byte 단위로 읽기 때문"),
          t("Pageable copies are checked for errors twice", "pageable copy는 error 검사를 두 번 하기 때문")]),
        (t("Which call allocates pinned host memory?", "pinned host memory를 할당하는 호출은 무엇입니까?"),
         t("cudaMallocHost (or cudaHostAlloc)", "cudaMallocHost (또는 cudaHostAlloc)"),
         [t("cudaMalloc", "cudaMalloc"), t("malloc followed by cudaMemcpy", "malloc 뒤에 cudaMemcpy"),
          t("new[] inside a __host__ function", "__host__ 함수 안의 new[]")]),
        (t("What is the cost of allocating a large share of host memory as pinned?",
           "host memory의 큰 부분을 pinned로 할당하면 어떤 비용이 있습니까?"),
         t("Less pageable memory is left for the OS and other processes, which can slow the whole system",
           "OS와 다른 process가 쓸 pageable memory가 줄어 시스템 전체가 느려질 수 있음"),
         [t("Kernels can no longer read global memory", "커널이 global memory를 읽지 못하게 됨"),
          t("None: pinned memory is always better", "없음: pinned memory는 항상 더 좋음"),
          t("The GPU's shared memory shrinks by the same amount", "GPU의 shared memory가 같은 양만큼 줄어듦")]),
    ],
}


class ApiBasics(Family):
    id = "programming_model.api"
    topic = Topic.PROGRAMMING_MODEL
    title = t("CUDA programming model basics", "CUDA programming model 기초")

    def make_params(self, rng, difficulty):
        order = [0, 1, 2, 3]  # 0 = the right answer, 1..3 the wrong ones, in the order shown
        rng.shuffle(order)
        return {"kind": ("qualifiers", "host_blocking", "pinned")[difficulty - 1],
                "fact": rng.randrange(len(FACTS[difficulty])), "order": order}

    def compose(self, params):
        level = ("qualifiers", "host_blocking", "pinned").index(params["kind"]) + 1
        q, right, wrong = FACTS[level][params["fact"]]
        options = [right, *wrong]
        keys = "abcd"
        choices = [Choice(keys[pos], options[o]) for pos, o in enumerate(params["order"])]
        key = keys[params["order"].index(0)]
        intro = {1: t("About CUDA function qualifiers:", "CUDA 함수 qualifier에 대해:"),
                 2: t("About what blocks the host:", "host를 멈추게 하는 것에 대해:"),
                 3: t("About pageable and pinned host memory:", "pageable과 pinned host memory에 대해:")}[level]
        prompt = [p(intro["en"] + " " + q["en"], intro["ko"] + " " + q["ko"])]
        fields = [choice_field("option", "Answer", "답", choices)]
        solution = [p(f"({key}) " + right["en"] + ".", f"({key}) " + right["ko"] + ".")]
        return prompt, fields, {"option": key}, solution


FAMILIES = (Scopes(), ApiBasics())
