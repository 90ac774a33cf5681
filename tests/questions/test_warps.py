"""synchronization.ballot and reduction.shuffle: the predicates are evaluated per lane from the printed source, the
shuffles are replayed lane by lane (a warp as a list of 32 registers), the tail warps are counted thread by thread."""
import re
from collections import Counter

from .familycheck import assert_family_basics, assert_not_guessable, questions


def code_of(q):
    return "\n".join(b["text"] for b in q.render("en")["prompt"] if b["kind"] == "code")


def lane_pred(src):
    py = src.replace("/", "//").replace("!=", "!=")
    return [bool(eval(py, {"__builtins__": {}}, {"lane": lane})) for lane in range(32)]  # noqa: S307


def test_basics():
    assert_family_basics("synchronization.ballot")
    assert_family_basics("reduction.shuffle")


def test_ballot_popc_and_ffs_per_lane():
    for q in questions("synchronization.ballot", 1):
        src = re.search(r"__ballot_sync\(0xffffffff, (.*)\);", code_of(q)).group(1)
        bits = lane_pred(src)
        lanes = [i for i, b in enumerate(bits) if b]
        assert q.answer == {"count": len(lanes), "first": lanes[0] + 1 if lanes else 0}
    assert_not_guessable([q.answer["count"] for q in questions("synchronization.ballot", 1)], 4)


def test_trust_keys_the_ballot_before_the_branch_and_not_activemask_inside():
    keys = Counter()
    for q in questions("synchronization.ballot", 2):
        src = code_of(q)
        pred = re.search(r"if \((.*)\) \{", src).group(1)
        mask = sum(1 << i for i, b in enumerate(lane_pred(pred)) if b)
        field = q.fields[0]
        label = {c.key: c.label["en"] for c in field.choices}[q.answer["mask"]]
        if "__activemask" in src:
            assert label.startswith("not fixed by the code")
        else:
            assert src.index("__ballot_sync") < src.index("if (")
            assert label.startswith(f"exactly 0x{mask:08x}")
        assert len({c.label["en"] for c in field.choices}) == 4
        keys[q.answer["mask"]] += 1
    assert max(keys.values()) / 300 <= 0.4 and len(keys) == 4, keys


def test_tail_masks_thread_by_thread():
    for q in questions("synchronization.ballot", 3, range(150)):
        T, n = q.params["block"], q.params["n"]
        blocks = -(-n // T)
        live = {}
        for b in range(blocks):
            for th in range(T):
                i = b * T + th
                w = (b * T + th) // 32
                live.setdefault(w, 0)
                if i < n:
                    live[w] |= 1 << (th % 32)
        last = live[(n - 1) // 32]
        assert q.answer == {"bits": bin(last).count("1"),
                            "partial": sum(0 < m < 0xFFFFFFFF for m in live.values()),
                            "empty": sum(m == 0 for m in live.values())}


def replay(v, kind):
    """Per-step lane values: down offsets 16..1 (out of range keeps its own), xor masks 1..16."""
    hist = [list(v)]
    for o in ([16, 8, 4, 2, 1] if kind == "down" else [1, 2, 4, 8, 16]):
        cur = hist[-1]
        if kind == "down":
            got = [cur[lane + o] if lane + o <= 31 else cur[lane] for lane in range(32)]
        else:
            got = [cur[lane ^ o] for lane in range(32)]
        hist.append([a + b for a, b in zip(cur, got)])
    return hist


def test_shuffle_traces_by_replay():
    for d, kind in ((1, "down"), (2, "xor")):
        qs = questions("reduction.shuffle", d)
        for q in qs:
            v = [int(x) for x in re.search(r"in = \{(.*)\}", code_of(q)).group(1).split(", ")]
            hist = replay(v, kind)
            k, lane = q.params["step"], q.params["lane"]
            assert q.answer["value"] == hist[k][lane]
            if kind == "down":
                assert q.answer["total"] == hist[5][0] == sum(v)
            else:
                assert q.answer["end"] == sum(v)
        assert_not_guessable([q.answer["value"] for q in qs], 4)


def test_block_shuffle_counts():
    for q in questions("reduction.shuffle", 3, range(100)):
        T, n = q.params["block"], q.params["n"]
        W = T // 32
        second, o = 0, W // 2
        while o > 0:
            second, o = second + 1, o // 2
        assert q.answer == {"shuffles": W * 5 + second, "atomics": len(range(0, n, T))}
