"""What blocks the host, as a timeline: asynchronous launches, blocking `cudaMemcpy`, `cudaDeviceSynchronize`, host
timers around a launch and the slow first launch.

Sources: seeds/000's host-side notes (launches are asynchronous; `cudaMemcpy` blocks; the first launch of a kernel
is slow — [H200] 147 µs vs 10–12 µs — so warm up before timing; CONTENT.md lines on "Host side") and the exam kind
of the Coursera heterogeneous-programming quiz and PMPP ch. 2 ("when does the host reach this line").
Model: a launch costs the host L µs and the kernel starts on the GPU when the launch returns (or when the previous
kernel of the default stream ends, if later); `cudaMemcpy` waits for earlier work of the stream, then copies, and
returns when the copy ends; the host does nothing else meanwhile.
"""
from __future__ import annotations

from .base import Family, Topic, code, integer_field, math, p, t


def loop_timeline(n: int, launch: int, k: int, cpu: int) -> tuple[int, int]:
    """(end of cudaDeviceSynchronize after n iterations of {launch; cpu work}, GPU idle time between kernels)."""
    host, gpu_free, idle = 0, 0, 0
    for i in range(n):
        host += launch
        start = max(host, gpu_free)
        if i:
            idle += start - gpu_free
        gpu_free = start + k
        host += cpu
    return max(host, gpu_free), idle


class HostTimeline(Family):
    id = "programming_model.host_timeline"
    topic = Topic.PROGRAMMING_MODEL
    title = t("Host timeline: what blocks and when", "host timeline: 무엇이 언제 멈추게 하는가")

    def make_params(self, rng, difficulty):
        L = rng.choice([5, 8, 10, 12])
        if difficulty == 1:
            return {"kind": "memcpy", "launch": L, "k": rng.randrange(2, 60) * 10, "cpu": rng.randrange(1, 60) * 10,
                    "copy": rng.randrange(1, 30) * 10}
        if difficulty == 2:
            return {"kind": "timing", "launch": L, "cold": rng.choice([120, 147, 150, 200]), "k": rng.randrange(1, 40) * 5}
        cpu = rng.randrange(2, 20) * 5
        gpu_bound = rng.random() < 0.3  # kernels queue back to back (GPU never idle) in about 3 of 10
        k = L + cpu + rng.randrange(0, 8) * 5 if gpu_bound else rng.randrange(1, (L + cpu) // 5 + 1) * 5 - 1
        return {"kind": "loop", "launch": L, "n": rng.randint(3, 10), "k": k, "cpu": cpu}

    def compose(self, params):
        L = params["launch"]
        model = p(f"A launch costs the host {L} µs and is asynchronous: the kernel starts on the GPU when the launch call "
                  "returns (or when the previous kernel ends, if later). Everything runs in the default stream.",
                  f"커널 실행 호출은 host에서 {L} µs가 걸리고 비동기입니다. 커널은 실행 호출이 반환될 때(앞 커널이 더 늦게 "
                  "끝나면 그때) GPU에서 시작합니다. 모두 default stream에서 실행됩니다.")
        if params["kind"] == "memcpy":
            k, c, d = params["k"], params["cpu"], params["copy"]
            kend = L + k
            copy_start = max(L + c, kend)
            done = copy_start + d
            prompt = [model,
                      code(f"kernel<<<grid, block>>>(d_out);           // runs {k} µs on the GPU\n"
                           f"host_work();                              // {c} µs on the CPU\n"
                           f"cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);   // copy takes {d} µs\n"
                           "printf(\"%f\\n\", h_out[0]);",
                           ko={f"runs {k} µs on the GPU": f"GPU에서 {k} µs 실행", f"{c} µs on the CPU": f"CPU에서 {c} µs",
                               f"copy takes {d} µs": f"복사에 {d} µs"}),
                      p("Measured from the launch call (t = 0), when does the kernel end, and when does the host reach "
                        "the printf (µs)?",
                        "실행 호출(t = 0)부터 재어, 커널은 언제 끝나고 host는 언제 printf에 도달합니까(µs)?")]
            fields = [integer_field("kernel_end", "Kernel ends at (µs)", "커널 종료 시각 (µs)"),
                      integer_field("printf", "Host reaches printf at (µs)", "host가 printf에 도달하는 시각 (µs)")]
            solution = [math(f"kernel: {L} → {kend};  host_work: {L} → {L + c}",
                             ko=f"커널: {L} → {kend};  host_work: {L} → {L + c}"),
                        math(f"cudaMemcpy waits for the kernel: copy {max(L + c, kend)} → {done}",
                             ko=f"cudaMemcpy는 커널을 기다림: copy {max(L + c, kend)} → {done}"),
                        p("The CPU work overlaps the kernel because the launch returns at once; cudaMemcpy blocks the "
                          "host until the copy, which waits for the kernel, is done.",
                          "실행 호출이 바로 반환되므로 CPU 작업은 커널과 겹칩니다. cudaMemcpy는 커널을 기다리는 copy가 "
                          "끝날 때까지 host를 멈춥니다.")]
            return prompt, fields, {"kernel_end": kend, "printf": done}, solution
        if params["kind"] == "timing":
            cold, k = params["cold"], params["k"]
            prompt = [model,
                      p(f"The first launch of a kernel in a process costs {cold} µs instead of {L} µs (module loading); "
                        f"the kernel runs {k} µs. A student times it twice with a host timer:",
                        f"process에서 커널의 첫 실행 호출은 {L} µs가 아니라 {cold} µs가 걸립니다(module loading). 커널은 "
                        f"{k} µs 실행됩니다. 학생이 host timer로 두 번 잽니다."),
                      code("auto t0 = now();  kernel<<<g, b>>>(x);  auto t1 = now();                          // (A)\n"
                           "cudaDeviceSynchronize();\n"
                           "auto t2 = now();  kernel<<<g, b>>>(x);  cudaDeviceSynchronize();  auto t3 = now();  // (B)"),
                      p("What do t1 − t0 and t3 − t2 measure (µs)?", "t1 − t0과 t3 − t2는 각각 몇 µs입니까?")]
            fields = [integer_field("a", "t1 − t0 (µs)", "t1 − t0 (µs)"), integer_field("b", "t3 − t2 (µs)", "t3 − t2 (µs)")]
            solution = [math(f"A: only the (first, cold) launch call = {cold} µs; the kernel is not in it",
                             ko=f"A: (첫, cold) 실행 호출만 = {cold} µs; 커널은 들어 있지 않음"),
                        math(f"B: warm launch + kernel = {L} + {k} = {L + k} µs",
                             ko=f"B: warm 실행 호출 + 커널 = {L} + {k} = {L + k} µs"),
                        p("Time a warmed-up kernel and synchronise before reading the timer (or use CUDA events).",
                          "한 번 미리 실행해 둔 커널을 재고, timer를 읽기 전에 동기화합니다(또는 CUDA event를 씁니다).")]
            return prompt, fields, {"a": cold, "b": L + k}, solution
        n, k, c = params["n"], params["k"], params["cpu"]
        total, idle = loop_timeline(n, L, k, c)
        prompt = [model,
                  code(f"for (int i = 0; i < {n}; ++i) {{\n    step<<<grid, block>>>(x, i);   // {k} µs on the GPU\n"
                       f"    prepare(i);                    // {c} µs on the CPU\n}}\ncudaDeviceSynchronize();",
                       ko={f"{k} µs on the GPU": f"GPU에서 {k} µs", f"{c} µs on the CPU": f"CPU에서 {c} µs"}),
                  p("When does cudaDeviceSynchronize return (µs from the start), and for how long in all is the GPU idle "
                    "between the first kernel's start and the last kernel's end?",
                    "cudaDeviceSynchronize는 시작부터 몇 µs에 반환되고, 첫 커널 시작부터 마지막 커널 종료까지 GPU가 "
                    "노는 시간은 모두 몇 µs입니까?")]
        fields = [integer_field("total", "cudaDeviceSynchronize returns at (µs)", "cudaDeviceSynchronize 반환 시각 (µs)"),
                  integer_field("idle", "GPU idle between kernels (µs)", "커널 사이 GPU 유휴 시간 (µs)")]
        per = L + c
        solution = [math(f"host issues a kernel every L + cpu = {L} + {c} = {per} µs; each kernel takes {k} µs",
                         ko=f"host는 L + cpu = {L} + {c} = {per} µs마다 커널 실행 호출; 커널마다 {k} µs"),
                    p("If the kernel is longer than the host's loop body, the kernels queue back to back and the GPU "
                      "never waits; otherwise the GPU waits for each launch.",
                      "커널이 host의 loop 본문보다 길면 커널이 줄지어 쉬지 않고 실행되고, 짧으면 GPU가 실행 호출마다 "
                      "기다립니다."),
                    math(f"return at {total} µs;  GPU idle {idle} µs", ko=f"{total} µs에 반환;  GPU 유휴 {idle} µs")]
        return prompt, fields, {"total": total, "idle": idle}, solution


FAMILIES: tuple[Family, ...] = (HostTimeline(),)
