"""Synchronization question families. Snippet outcomes come from the barrier simulator (syncsim), masks
and predicate-barrier results from enumerating the threads, grid-wide answers from the occupancy model.

Source: seeds/000 lines 1322–2645 (__syncthreads and its placement, the reduce4 text at 1393–1922,
the turnstile cases at 1930–2011, __syncwarp masks and independent thread scheduling at 2035–2576,
grid-wide synchronization), keyed by the barrier rule of docs/synchronization.md and CONTENT.md's
errata where the seed and the hardware disagree."""
from __future__ import annotations

import random
from itertools import combinations
from typing import Any


from ..answers import Choice
from ..korean import josa, particle
from . import snippets as S
from .base import Family, Topic, choice_field, code, integer_field, items, letters, math, p, t
from .synchronization_grid import GRID_CHOICES, GridSync  # noqa: F401  (GRID_CHOICES is re-exported)
from .syncsim import Outcome, SimResult, Slot, render, simulate

OUTCOME_CHOICES = [
    Choice(str(Outcome.CORRECT), t("Correct: completes with a well-defined result",
                                   "올바름: 끝까지 실행되고 결과가 정의됨")),
    Choice(str(Outcome.RACE), t("Data race (no barrier orders two accesses)",
                                "data race (두 접근 사이에 barrier가 없음)")),
    Choice(str(Outcome.DIVERGENT), t("Divergent barrier: undefined behaviour (may even complete)",
                                     "divergent barrier: 정의되지 않은 동작 (끝날 수도 있음)")),
    Choice(str(Outcome.DEADLOCK), t("Deadlock: some threads wait forever (hangs)",
                                    "deadlock: 일부 thread가 영원히 기다림 (멈춤)")),
]
BLOCKS = {1: [128, 256], 2: [128, 256, 512], 3: [128, 256, 512]}


def explain(result: SimResult, where: dict[int, int]) -> list:
    """Why the simulator classified the snippet so, with line numbers and thread ids."""
    o = result.outcome
    if o is Outcome.RACE:
        (t1, k1, s1), (t2, k2, s2) = result.first, result.second
        verb = {"r": ("reads", "읽고"), "w": ("writes", "쓰고"), "a": ("atomically updates", "atomic으로 갱신하고")}
        arr, idx = result.address[0], result.address[1] if len(result.address) > 1 else ""
        return [p(f"Thread {t1} {verb[k1][0]} `{arr}[{idx}]` (line {where[id(s1)]}) and thread {t2} "
                  f"{verb[k2][0]} it (line {where[id(s2)]}) with no barrier between them: a data race. "
                  "Since Volta, even lanes of one warp are not in lock-step.",
                  f"thread {josa(t1, '은')} `{arr}[{idx}]`{particle(f'{arr}[{idx}]', '를')} {verb[k1][1]} "
                  f"(line {where[id(s1)]}), thread {josa(t2, '은')} 같은 곳을 {verb[k2][1].rstrip('고')}는데 (line {where[id(s2)]}) 둘 사이에 barrier가 없습니다: data race. "
                  "Volta 이후에는 같은 warp의 lane도 lock-step이 아닙니다.")]
    if o is Outcome.DIVERGENT:
        en = [f"{len(ts)} threads (e.g. thread {ts[0]}) wait at line {where[id(s)]}" for s, ts in result.waits]
        ko = [f"thread {len(ts)}개 (예: thread {ts[0]})가 line {where[id(s)]}에서 기다림" for s, ts in result.waits]
        return [p("Every live thread reaches a __syncthreads(), but not the same one:",
                  "살아 있는 모든 thread가 __syncthreads()에 도달하지만 같은 것이 아닙니다:"),
                items(en, ko),
                p("A barrier must be reached by all non-exited threads of the block: this is undefined behaviour. "
                  "On an H200 such code may even complete; compute-sanitizer's synccheck reports it.",
                  "barrier는 block의 종료하지 않은 모든 thread가 같은 곳에서 만나야 합니다: 정의되지 않은 동작입니다. "
                  "H200에서는 끝까지 실행되기도 하지만 compute-sanitizer synccheck가 잡아냅니다.")]
    if o is Outcome.DEADLOCK:
        en = [f"{len(ts)} threads (e.g. thread {ts[0]}) are stuck at line {where[id(s)]}" for s, ts in result.waits]
        ko = [f"thread {len(ts)}개 (예: thread {ts[0]})가 line {where[id(s)]}에 멈춤" for s, ts in result.waits]
        return [p("No thread can move any more:", "더 이상 어떤 thread도 진행할 수 없습니다:"), items(en, ko),
                p("The spinning threads are alive and never arrive at the barrier, and the flag they wait for is set "
                  "only after it: the kernel hangs (a watchdog or a timeout has to kill it).",
                  "flag를 기다리며 도는 thread는 살아 있지만 barrier에 오지 않고, 기다리는 flag는 barrier 뒤에서야 설정됩니다: "
                  "커널이 멈춥니다 (watchdog이나 timeout으로 강제 종료해야 함).")]
    return [p("Every barrier is reached by all threads that have not exited, and every shared location written by "
              "one thread is read by another only after a barrier (atomics may overlap): the result is well-defined.",
              "모든 barrier에 종료하지 않은 thread가 전부 도달하고, 한 thread가 쓴 shared 위치를 다른 thread는 "
              "barrier 뒤에서만 읽습니다 (atomic끼리는 겹쳐도 됨): 결과가 정의됩니다."),
            p("Threads that returned before a barrier do not count at it: sm_70+ releases a barrier once every "
              "thread that has not exited arrives, and WarpDrill's barrier rule (docs/synchronization.md) accepts an "
              "early `return` above the barrier. A barrier placed *inside* a condition that differs in the block is "
              "another matter: the Programming Guide calls it undefined even when the skipping threads exit.",
              "barrier보다 먼저 `return`으로 종료한 thread는 barrier에서 세지 않습니다: sm_70 이상은 종료하지 않은 thread가 모두 "
              "도착하면 barrier를 풀어 주고, WarpDrill의 barrier 규칙(docs/synchronization.md)도 barrier 위의 이른 "
              "`return`을 허용합니다. 그러나 block 안에서 값이 다른 조건 *안에* 둔 barrier는 다릅니다: 건너뛴 thread가 "
              "종료하더라도 Programming Guide는 정의되지 않은 동작으로 봅니다.")]


class ClassifySnippet(Family):
    id = "synchronization.classify"
    version = 2  # 2: guarded snippets, per-difficulty structures, no Guide-vs-hardware shapes
    topic = Topic.SYNCHRONIZATION
    title = t("What does this kernel do?", "이 커널은 어떻게 동작하는가?")

    def make_params(self, rng, difficulty):
        outcome = rng.choice([str(o) for o in Outcome])
        name = rng.choice(S.CLASSIFY_LEVELS[difficulty][outcome])
        block = rng.choice(BLOCKS[difficulty])
        return {"snippet": name, "block": block, "args": S.CLASSIFY[name][2](rng, block), "n": rng.choice([500, 5000])}

    @staticmethod
    def run(params) -> tuple[str, dict[int, int], SimResult]:
        builder, intended, _, extra = S.CLASSIFY[params["snippet"]]
        body = builder(params["block"], **params["args"])
        src, where = render(S.header(params["block"], extra, flag=intended == "deadlock"), body)
        return src, where, simulate(body, params["block"], env={"n": params["n"]})

    def compose(self, params):
        src, where, result = self.run(params)
        flag_note = params["snippet"] in ("spin_after_barrier", "producer_waits_at_barrier")
        prompt = [p(f"The kernel is launched with {params['block']} threads per block (n = {params['n']}"
                    + (", *ready = 0" if flag_note else "") + "). What happens?",
                    f"커널을 block당 thread {params['block']}개로 실행합니다 (n = {params['n']}"
                    + (", *ready = 0" if flag_note else "") + "). 어떻게 됩니까?"),
                  code(src)]
        fields = [choice_field("outcome", "Outcome", "결과", OUTCOME_CHOICES)]
        return prompt, fields, {"outcome": str(result.outcome)}, explain(result, where)


class PlaceBarrier(Family):
    id = "synchronization.place_barrier"
    version = 2  # 2: the options in a drawn order, a structure per difficulty
    topic = Topic.SYNCHRONIZATION
    title = t("Where does the barrier go?", "barrier는 어디에?")

    # 1: one barrier between a write and a neighbour's read; 2: two barriers (a write-after-read
    # as well), or shared atomics between an init and a merge; 3: a barrier inside a loop.
    LEVELS = {1: ["neighbour"], 2: ["shift", "histogram"], 3: ["reduce", "shift", "histogram"]}

    def make_params(self, rng, difficulty):
        name = rng.choice(self.LEVELS[difficulty])
        block = rng.choice(BLOCKS[difficulty])
        return {"snippet": name, "block": block, "args": S.PLACE[name][1](rng, block), "order": rng.randrange(1 << 30)}

    @staticmethod
    def evaluate(params) -> tuple[list[Any], list[tuple[str, ...]], dict[tuple[str, ...], SimResult]]:
        """The body, the options offered (sets of slot labels) and the simulator's result for each."""
        builder = S.PLACE[params["snippet"]][0]
        body = builder(params["block"], **params["args"])
        labels = sorted(s.label for s in _slots(body))
        candidates = [(x,) for x in labels] + [c for c in combinations(labels, 2)] + [()]
        results = {}
        for option in candidates:
            trial = builder(params["block"], **params["args"])
            for s in _slots(trial):
                s.active = s.label in option
            results[option] = simulate(trial, params["block"])
        good = [o for o in candidates if results[o].outcome is Outcome.CORRECT]
        best = min(good, key=len) if good else ()
        # Offer the smallest right option and up to four wrong ones: exactly one is right. The order
        # is drawn (params["order"]), so the right option is not always in the same place; variants
        # stored before the order existed keep their fixed order.
        wrong = [o for o in candidates if o not in good][:4]
        offered = [o for o in candidates if o == best or o in wrong]
        if "order" in params:
            random.Random(params["order"]).shuffle(offered)
        return body, offered, results

    def compose(self, params):
        body, offered, results = self.evaluate(params)
        extra = S.PLACE[params["snippet"]][2]
        src, _ = render(S.header(params["block"], extra), body)
        right = [o for o in offered if results[o].outcome is Outcome.CORRECT]
        keys = letters(len(offered))

        def label(o, lang):
            if not o:
                return "No barrier is needed" if lang == "en" else "barrier가 필요 없음"
            joined = " and ".join(f"({x})" for x in o) if lang == "en" else "와 ".join(f"({x})" for x in o)
            return f"__syncthreads() at {joined}" if lang == "en" else f"{joined}에 __syncthreads()"

        choices = [Choice(k, t(label(o, "en"), label(o, "ko"))) for k, o in zip(keys, offered)]
        prompt = [p(f"The kernel runs with {params['block']} threads per block. Where must `__syncthreads()` go so "
                    "that the result is well-defined, with as few barriers as possible? The comments (A), (B), ... mark "
                    "the candidate places.",
                    f"커널을 block당 thread {params['block']}개로 실행합니다. 결과가 정의되도록 하려면 "
                    "`__syncthreads()`를 어디에 넣어야 합니까 (barrier는 최소로)? 주석 (A), (B), ...가 후보 위치입니다."),
                  code(src)]
        fields = [choice_field("slots", "Placement", "위치", choices)]
        answer = {"slots": keys[offered.index(right[0])]}
        en, ko = [], []
        for o in offered:
            r = results[o]
            name = {"correct": ("correct", "올바름"), "race": ("a data race remains", "data race가 남음"),
                    "divergent": ("divergent barrier", "divergent barrier"), "deadlock": ("deadlock", "deadlock")}[r.outcome]
            en.append(f"{label(o, 'en')}: {name[0]}")
            ko.append(f"{label(o, 'ko')}: {name[1]}")
        fixed = S.PLACE[params["snippet"]][0](params["block"], **params["args"])
        for s in _slots(fixed):
            s.active = s.label in right[0]
        fixed_src, _ = render(S.header(params["block"], extra), fixed)
        solution = [p("Simulating each option:", "각 보기를 시뮬레이션하면:"), items(en, ko),
                    p("The fixed kernel:", "고친 커널:"), code(_drop_slot_comments(fixed_src))]
        return prompt, fields, answer, solution


def _slots(body) -> list[Slot]:
    out = []
    for s in body:
        if isinstance(s, Slot):
            out.append(s)
        for attr in ("then", "orelse", "body"):
            out += _slots(getattr(s, attr, []) or [])
    return out


def _drop_slot_comments(src: str) -> str:
    return "\n".join(line for line in src.split("\n") if not line.strip().startswith("// ("))


class SyncwarpMask(Family):
    id = "synchronization.syncwarp_mask"
    version = 2  # 2: the partner lane read after __syncwarp is one of the participating lanes
    topic = Topic.SYNCHRONIZATION
    title = t("__syncwarp mask", "__syncwarp mask")

    KINDS = ["below", "even", "from", "range", "partial_warp"]

    def make_params(self, rng, difficulty):
        kinds = {1: ["below"], 2: ["below", "even", "from"], 3: self.KINDS}[difficulty]
        kind = rng.choice(kinds)
        if kind == "partial_warp":
            return {"kind": kind, "block": rng.choice([40, 48, 72, 80, 100])}
        a = rng.randint(1, 31)
        b = rng.randint(a + 1, 32)
        return {"kind": kind, "k": rng.randint(1, 31), "a": a, "b": b}

    @staticmethod
    def lanes(params) -> tuple[list[int], str, str, str]:
        """The lanes that take part, the condition as code, and the condition in words (en, ko)."""
        kind = params["kind"]
        if kind == "below":
            k = params["k"]
            return [x for x in range(32) if x < k], f"lane < {k}", f"lanes 0..{k - 1}", f"lane 0..{k - 1}"
        if kind == "from":
            k = params["k"]
            return [x for x in range(32) if x >= k], f"lane >= {k}", f"lanes {k}..31", f"lane {k}..31"
        if kind == "even":
            return [x for x in range(32) if x % 2 == 0], "lane % 2 == 0", "the even lanes", "짝수 lane"
        if kind == "range":
            a, b = params["a"], params["b"]
            return ([x for x in range(32) if a <= x < b], f"lane >= {a} && lane < {b}", f"lanes {a}..{b - 1}",
                    f"lane {a}..{b - 1}")
        block = params["block"]
        last = (block - 1) // 32
        present = [t % 32 for t in range(block) if t // 32 == last]
        return present, "true", f"every thread of warp {last}", f"warp {last}의 모든 thread"

    @staticmethod
    def partner(params) -> str:
        """The next participating lane, cyclically: every lane read after __syncwarp wrote its slot."""
        kind = params["kind"]
        if kind == "below":
            return f"(lane + 1) % {params['k']}"
        if kind == "from":
            k = params["k"]
            return f"{k} + (lane - {k} + 1) % {32 - k}"
        if kind == "even":
            return "(lane + 2) % 32"
        a, b = params["a"], params["b"]
        return f"{a} + (lane - {a} + 1) % {b - a}"

    def compose(self, params):
        lanes, cond, en_words, ko_words = self.lanes(params)
        mask = 0
        for lane in lanes:
            mask |= 1 << lane
        if params["kind"] == "partial_warp":
            block = params["block"]
            last = (block - 1) // 32
            prompt = [p(f"A block has {block} threads. Warp {last} must synchronize its threads with `__syncwarp(mask)`. "
                        "Which mask names exactly the threads that exist in that warp?",
                        f"block은 thread {block}개입니다. warp {josa(last, '가')} `__syncwarp(mask)`로 자기 thread들을 동기화해야 "
                        "합니다. 그 warp에 실제로 있는 thread만 정확히 나타내는 mask는?"),
                      code("int lane = threadIdx.x % 32;\n... // exchange values through shared memory\n__syncwarp(MASK);",
                           ko={"exchange values through shared memory": "shared memory로 값을 주고받음"})]
            solution = [p(f"Warp {last} holds threads {last * 32}..{block - 1}: lanes 0..{len(lanes) - 1}.",
                          f"warp {last}에는 thread {last * 32}..{block - 1}, 즉 lane 0..{josa(len(lanes) - 1, '이')} 있습니다."),
                        math(f"mask = 2^{len(lanes)} − 1 = 0x{mask:08X}")]
        else:
            prompt = [p(f"Only {en_words} of a warp execute the block below. Which mask must they pass to `__syncwarp` "
                        "(every lane named in the mask must call it)?",
                        f"warp 중 {ko_words}만 아래 블록을 실행합니다. `__syncwarp`에 넘길 mask는 무엇입니까 (mask에 있는 "
                        "모든 lane이 호출해야 함)?"),
                      code(f"int lane = threadIdx.x % 32;\nif ({cond}) {{\n    buf[lane] = v;\n    __syncwarp(MASK);\n"
                           f"    v += buf[{self.partner(params)}];   // a lane that also took part\n}}",
                           ko={"a lane that also took part": "마찬가지로 참여한 lane"})]
            bits = "".join("1" if (mask >> (31 - i)) & 1 else "0" for i in range(32))
            grouped = " ".join(bits[i:i + 4] for i in range(0, 32, 4))
            solution = [p("Set bit i for every lane i that takes part:", "참여하는 lane i마다 bit i를 켭니다:"),
                        math(f"{grouped} (bit 31 … bit 0) = 0x{mask:08X}")]
            if params["kind"] == "below":
                solution.append(math(f"lanes < {params['k']}: 2^{params['k']} − 1 = {mask}"))
        fields = [integer_field("mask", "MASK", "MASK", unit="hex")]
        return prompt, fields, {"mask": mask}, solution


PREDICATES = {
    # name: (code, whether it holds for thread (x, y) given the drawn args)
    "below": ("threadIdx.x < {k}", lambda x, y, a: x < a["k"]),
    "every": ("threadIdx.x % {m} == 0", lambda x, y, a: x % a["m"] == 0),
    "bits": ("(threadIdx.x & {mask}) == {mask}", lambda x, y, a: (x & a["mask"]) == a["mask"]),
    "data": ("data[threadIdx.x] > {limit}", lambda x, y, a: (x * a["mul"]) % a["mod"] > a["limit"]),
    "row": ("threadIdx.y == {row} && threadIdx.x > threadIdx.y", lambda x, y, a: y == a["row"] and x > y),
    "none": ("threadIdx.x >= blockDim.x", lambda x, y, a: False),
}


# The comment a predicate needs to be read (it goes on its own line, above the code: issue 15 found
# a rendering whose `;` ended up inside the comment).
PREDICATE_COMMENTS = {"data": "// data[i] = (i * {mul}) % {mod}"}


class PredicateBarrier(Family):
    id = "synchronization.predicate_barrier"
    version = 2  # 2: the comment above the code; `and`/`or` answers drawn evenly (all / none / some threads)
    topic = Topic.SYNCHRONIZATION
    title = t("__syncthreads_count / _and / _or", "__syncthreads_count / _and / _or")

    def make_params(self, rng, difficulty):
        names = {1: ["below", "every"], 2: ["below", "every", "bits", "none"], 3: ["bits", "data", "row", "every"]}
        # Draw what the predicate does first (true for all, none or some threads): otherwise `and` is
        # almost always 0 and `or` almost always non-zero, and a student need not think.
        shape = rng.choice(["all", "none", "some"])
        name = {"all": "below", "none": rng.choice(["none", "below"])}.get(shape) or rng.choice(names[difficulty])
        block = [rng.choice([64, 100, 128, 200, 256])] if name != "row" else [rng.choice([16, 32]), rng.choice([4, 8])]
        k = {"all": rng.randint(block[0], block[0] + 10), "none": 0}.get(shape, rng.randint(1, block[0] - 1))
        args = {"k": k, "m": rng.choice([2, 3, 5, 7, 10]), "mask": rng.choice([3, 5, 6, 9, 12]),
                "mul": rng.choice([7, 11, 13]), "mod": rng.choice([17, 19, 23]), "limit": rng.randint(3, 15),
                "row": rng.randint(0, (block[1] - 1) if len(block) > 1 else 0)}
        return {"predicate": name, "block": block, "args": args}

    def compose(self, params):
        name, block, args = params["predicate"], params["block"], params["args"]
        src, fn = PREDICATES[name]
        cond = src.format(**args)
        comment = PREDICATE_COMMENTS.get(name, "").format(**args)
        bx, by = block[0], block[1] if len(block) > 1 else 1
        values = [bool(fn(x, y, args)) for y in range(by) for x in range(bx)]
        count = sum(values)
        shape = f"{bx} × {by}" if len(block) > 1 else f"{bx}"
        prompt = [p(f"A block of {shape} threads runs the lines below (every thread reaches them). What does each call "
                    "return?",
                    f"thread {shape}개인 block이 아래 줄을 실행합니다 (모든 thread가 도달). 각 호출의 반환값은?"),
                  code((f"{comment}\n" if comment else "") + f"int pred = {cond};\nint c = __syncthreads_count(pred);\nint a = __syncthreads_and(pred);\n"
                       "int o = __syncthreads_or(pred);")]
        zn = [Choice("zero", t("0", "0")), Choice("nonzero", t("non-zero", "0이 아님"))]
        fields = [integer_field("count", "c (count)", "c (count)"),
                  choice_field("and", "a (and)", "a (and)", zn), choice_field("or", "o (or)", "o (or)", zn)]
        answer = {"count": count, "and": "nonzero" if all(values) else "zero", "or": "nonzero" if any(values) else "zero"}
        solution = [p(f"Evaluate the predicate for each of the {len(values)} threads: it holds for {count}.",
                      f"thread {len(values)}개 각각에서 predicate를 계산하면 {count}개에서 참입니다."),
                    items([f"__syncthreads_count = {count}",
                           f"__syncthreads_and = {'non-zero' if all(values) else '0'} (true for every thread?)",
                           f"__syncthreads_or = {'non-zero' if any(values) else '0'} (true for any thread?)"],
                          [f"__syncthreads_count = {count}",
                           f"__syncthreads_and = {'0이 아님' if all(values) else '0'} (모든 thread가 참?)",
                           f"__syncthreads_or = {'0이 아님' if any(values) else '0'} (하나라도 참?)"]),
                    p("They are barriers too: every thread of the block must reach them.",
                      "이 함수들도 barrier이므로 block의 모든 thread가 도달해야 합니다.")]
        return prompt, fields, answer, solution


FAMILIES = [ClassifySnippet(), PlaceBarrier(), SyncwarpMask(), PredicateBarrier(), GridSync()]
