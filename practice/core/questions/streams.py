"""Stream timelines: a transfer split into N chunks, each copied in, processed and copied out in its own
stream, overlapping on the GPU's engines.

Source: the exam kind of PMPP ch. 20 / the CUDA Best Practices Guide's "overlapping transfers and kernel
execution" (staged concurrent copy and execute) and the Coursera heterogeneous-programming quiz on streams;
seeds/000's host-side notes (asynchronous launches). Model: every engine (host-to-device copy, compute,
device-to-host copy) runs one operation at a time, in the order the operations were issued to it, and a
chunk's three stages run in order. With two copy engines the stages form a pipeline; with one, both
directions share it.
"""
from __future__ import annotations

from .base import Family, Topic, code, math, number_field, p, t


def pipeline(n: int, h: float, k: float, d: float) -> float:
    """Finish time with separate H2D, compute and D2H engines (FIFO each): h + k + d + (n - 1)·max(h, k, d)."""
    return h + k + d + (n - 1) * max(h, k, d)


def one_copy_engine(n: int, h: float, k: float, d: float) -> float:
    """Finish time with one copy engine for both directions, operations issued breadth-first (all copies in, all
    kernels, all copies out): the engine runs H0..H(n-1), then D0..D(n-1)."""
    h_end = [h * (i + 1) for i in range(n)]
    k_end: list[float] = []
    for i in range(n):
        k_end.append(max(h_end[i], k_end[-1] if k_end else 0.0) + k)
    t_engine = h_end[-1]
    for i in range(n):
        t_engine = max(t_engine, k_end[i]) + d
    return t_engine


ISSUE = ("for (int i = 0; i < N; ++i) cudaMemcpyAsync(d_in + i*C, h_in + i*C, bytes, cudaMemcpyHostToDevice, s[i]);\n"
         "for (int i = 0; i < N; ++i) kernel<<<grid, block, 0, s[i]>>>(d_in + i*C, d_out + i*C);\n"
         "for (int i = 0; i < N; ++i) cudaMemcpyAsync(h_out + i*C, d_out + i*C, bytes, cudaMemcpyDeviceToHost, s[i]);")


class StreamTimeline(Family):
    id = "performance.streams"
    topic = Topic.PERFORMANCE
    title = t("Overlapping copies and kernels with streams", "stream으로 copy와 커널 겹치기")

    def make_params(self, rng, difficulty):
        n = rng.choice([2, 3, 4, 5, 8])
        if difficulty == 1:
            return {"kind": "times", "n": n, "h": rng.randrange(1, 21) * 10, "k": rng.randrange(1, 21) * 10,
                    "d": rng.randrange(1, 21) * 10}
        if difficulty == 2:
            return {"kind": "bandwidth", "n": n, "mb": rng.choice([64, 128, 256, 512]), "gbps": rng.choice([12, 16, 25, 50]),
                    "k_total": rng.randrange(2, 41) * 500}
        return {"kind": "engines", "n": n, "h": rng.randrange(1, 11) * 10, "k": rng.randrange(1, 11) * 10,
                "d": rng.randrange(1, 11) * 10}

    def compose(self, params):
        n = params["n"]
        pinned = p("Host buffers are pinned; each chunk i uses its own stream s[i], and the operations are issued "
                   "breadth-first:",
                   "host buffer는 pinned이고, chunk i마다 자기 stream s[i]를 쓰며, 연산은 breadth-first 순서로 발행합니다.")
        if params["kind"] == "bandwidth":
            mb, bw, kt = params["mb"], params["gbps"], params["k_total"]
            h = mb * 1e6 / (bw * 1e9) * 1e6 / n  # µs per chunk and direction
            k = kt / n
            seq = 2 * h * n + kt
            ovl = pipeline(n, h, k, h)
            prompt = [
                p(f"A kernel processes {mb} MB of input into {mb} MB of output (1 MB = 10⁶ B). PCIe moves {bw} GB/s in each "
                  f"direction at once (two copy engines), and the kernel takes {kt} µs for the whole data, in proportion "
                  f"to its size. The work is split into N = {n} equal chunks.",
                  f"커널이 입력 {mb} MB를 처리해 출력 {mb} MB를 만듭니다(1 MB = 10⁶ B). PCIe는 양방향 동시에 각각 {bw} GB/s "
                  f"(copy engine 2개)이고, 커널은 전체 데이터에 {kt} µs가 걸리며 크기에 비례합니다. 작업을 같은 크기의 chunk "
                  f"N = {n}개로 나눕니다."),
                pinned, code(ISSUE),
                p("How long does one chunk's copy take (µs), how long does the whole job take with the chunks overlapped, "
                  "and what is the speedup over doing copy-in, kernel, copy-out for all the data one after the other?",
                  "chunk 하나의 copy는 몇 µs이고, chunk를 겹쳐 실행하면 전체 작업은 몇 µs이며, 전체 데이터를 copy-in, 커널, "
                  "copy-out 순서로 차례차례 할 때보다 몇 배 빠릅니까?"),
            ]
            fields = [number_field("copy_us", "One chunk's copy (µs)", "chunk 하나의 copy (µs)"),
                      number_field("total_us", "Overlapped total (µs)", "겹친 전체 시간 (µs)"),
                      number_field("speedup", "Speedup", "속도 향상 (배)")]
            answer = {"copy_us": round(h, 6), "total_us": round(ovl, 6), "speedup": round(seq / ovl, 6)}
            solution = [math(f"copy per chunk = {mb}·10⁶ B / {bw}·10⁹ B/s / {n} = {h:.2f} µs;  kernel per chunk = {k:.2f} µs",
                             ko=f"chunk당 copy = {mb}·10⁶ B / {bw}·10⁹ B/s / {n} = {h:.2f} µs;  chunk당 커널 = {k:.2f} µs"),
                        math(f"overlapped = h + k + d + (N − 1)·max(h, k, d) = {ovl:.2f} µs",
                             ko=f"겹친 전체 = h + k + d + (N − 1)·max(h, k, d) = {ovl:.2f} µs"),
                        math(f"sequential = 2 × {h * n:.2f} + {kt} = {seq:.2f} µs;  speedup = {seq / ovl:.3f}",
                             ko=f"순차 = 2 × {h * n:.2f} + {kt} = {seq:.2f} µs;  속도 향상 = {seq / ovl:.3f}")]
            return prompt, fields, answer, solution
        h, k, d = params["h"], params["k"], params["d"]
        two = pipeline(n, h, k, d)
        stages = p(f"Data is split into N = {n} chunks. Per chunk the host-to-device copy takes {h} µs, the kernel {k} µs "
                   f"and the device-to-host copy {d} µs. Each engine runs one operation at a time, in issue order.",
                   f"데이터를 chunk N = {n}개로 나눕니다. chunk마다 host-to-device copy는 {h} µs, 커널은 {k} µs, "
                   f"device-to-host copy는 {d} µs 걸립니다. 각 engine은 한 번에 연산 하나를 발행 순서대로 실행합니다.")
        if params["kind"] == "times":
            seq = n * (h + k + d)
            prompt = [stages, pinned, code(ISSUE),
                      p("The GPU has two copy engines (one per direction). How long does it all take if everything "
                        "runs in one stream, and how long with the N streams above?",
                        "GPU에는 copy engine이 2개(방향마다 하나) 있습니다. 모두 stream 하나에서 실행하면 몇 µs이고, 위처럼 "
                        "stream N개를 쓰면 몇 µs입니까?")]
            fields = [number_field("one_stream", "One stream (µs)", "stream 하나 (µs)"),
                      number_field("streams", "N streams (µs)", "stream N개 (µs)")]
            answer = {"one_stream": float(seq), "streams": float(two)}
            solution = [math(f"one stream: N·(h + k + d) = {n} × {h + k + d} = {seq} µs"),
                        math(f"N streams: h + k + d + (N − 1)·max(h, k, d) = {h + k + d} + {n - 1} × {max(h, k, d)} = {two} µs")]
            return prompt, fields, answer, solution
        one = one_copy_engine(n, h, k, d)
        prompt = [stages, pinned, code(ISSUE),
                  p("How long does it take on a GPU with two copy engines (one per direction), and on a GPU with a single "
                    "copy engine shared by both directions (it runs the copies in the order they were issued)?",
                    "copy engine이 2개(방향마다 하나)인 GPU와, 두 방향이 copy engine 하나를 나눠 쓰는 GPU(발행된 순서로 copy "
                    "실행)에서 각각 몇 µs 걸립니까?")]
        fields = [number_field("two_engines", "Two copy engines (µs)", "copy engine 2개 (µs)"),
                  number_field("one_engine", "One copy engine (µs)", "copy engine 1개 (µs)")]
        answer = {"two_engines": float(two), "one_engine": float(one)}
        solution = [math(f"two engines: {h + k + d} + {n - 1} × {max(h, k, d)} = {two} µs"),
                    p(f"One engine runs all {n} copies in first ({n * h} µs); each copy out then waits for its kernel and "
                      "for the previous copy out.",
                      f"engine 하나가 먼저 copy-in {n}개를 모두 실행합니다({n * h} µs). 그 뒤 copy-out은 각각 자기 커널과 앞선 "
                      "copy-out을 기다립니다."),
                    math(f"one engine: {one} µs")]
        return prompt, fields, answer, solution


FAMILIES = (StreamTimeline(),)
