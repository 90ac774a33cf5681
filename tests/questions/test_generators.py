"""Question generators: deterministic, answered by the model or an independent computation, bilingual."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from practice.core.answers import FieldKind, parse_response
from problems.core.gpus import capability, gpu
from practice.core.questions import FAMILIES, Topic, families_for, family, generate
from practice.core.questions import snippets
from practice.core.questions.indexing import WarpAndLane
from practice.core.questions.synchronization import PlaceBarrier

SEEDS = range(40)
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def reference_blocks(cc: str, threads: int, regs: int, smem: int) -> int:
    """Blocks per SM written out from the textbook rules, apart from the model (default carveout, opt-in)."""
    c = capability(cc)
    if threads > 1024 or regs > 255:
        return 0
    w = -(-threads // 32)
    per_warp = -(-regs * 32 // 256) * 256
    if per_warp * (-(-w // 4) * 4) > c.regs_per_block:
        return 0
    alloc = -(-(smem + c.smem_reserved_per_block) // c.smem_alloc_unit) * c.smem_alloc_unit
    if alloc > c.smem_per_block_optin + c.smem_reserved_per_block:
        return 0
    limits = [c.max_warps_per_sm // w, c.max_blocks_per_sm] + ([c.smem_per_sm // alloc] if alloc else [])
    if per_warp:
        limits.append((c.regs_per_sm // 4 // per_warp) * 4 // w)
    return min(limits)


def all_questions(family_id, seeds=SEEDS):
    for seed in seeds:
        for difficulty in (1, 2, 3):
            yield generate(family_id, seed, difficulty)


def test_there_are_enough_families():
    assert len(FAMILIES) >= 40  # issue 15's target
    assert len(families_for(Topic.OCCUPANCY)) >= 6
    assert len(families_for(Topic.INDEXING)) >= 5
    assert len(families_for(Topic.SYNCHRONIZATION)) >= 5


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_same_seed_same_question(family_id):
    for seed in (0, 1, 99):
        a, b = generate(family_id, seed, 2), generate(family_id, seed, 2)
        assert a.params == b.params and a.answer == b.answer
        assert a.render("en") == b.render("en")
    assert any(generate(family_id, s, 2).params != generate(family_id, 0, 2).params for s in range(1, 10))


def test_generation_does_not_depend_on_the_process():
    """A fresh interpreter with another hash seed generates the same params and answers."""
    code = ("import json; from practice.core.questions import FAMILIES, generate; "
            "print(json.dumps({f: [generate(f, s, 2).params | {'_a': generate(f, s, 2).answer} for s in range(3)] "
            "for f in FAMILIES}, sort_keys=True))")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout
    here = {f: [generate(f, s, 2).params | {"_a": generate(f, s, 2).answer} for s in range(3)] for f in FAMILIES}
    assert json.loads(out) == json.loads(json.dumps(here, sort_keys=True))


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_every_family_renders_in_both_languages(family_id):
    for q in (generate(family_id, s, d) for s in range(5) for d in (1, 2, 3)):
        en, ko = q.render("en"), q.render("ko")
        assert en["title"] and ko["title"]
        en_text = " ".join(b.get("text", "") for b in en["prompt"] if b["kind"] == "p")
        ko_text = " ".join(b.get("text", "") for b in ko["prompt"] if b["kind"] == "p")
        assert en_text and HANGUL.search(ko_text) and not HANGUL.search(en_text)
        assert len(en["fields"]) == len(ko["fields"]) == len(q.fields) >= 1
        for lang in ("en", "ko"):
            sol = q.render_solution(lang)
            assert sol and all(b.get("text") or b.get("items") for b in sol)
        assert "answer" not in json.dumps(en)  # the key never travels with the prompt


@pytest.mark.parametrize("family_id", sorted(FAMILIES))
def test_answer_key_grades_itself(family_id):
    """The stored key's values, typed back as text, parse and grade as right."""
    from practice.core.answers import Field, grade

    for q in (generate(family_id, s, d) for s in range(5) for d in (1, 2, 3)):
        key = q.answer_key()
        fields = [Field.from_dict(f) for f in key["fields"]]
        typed = {f.name: (str(key["values"][f.name]) if f.kind is not FieldKind.NUMBER
                          else f"{key['values'][f.name]:.6f}") for f in fields}
        values, errors = parse_response(fields, typed)
        assert not errors, errors
        assert grade(fields, key["values"], values).correct


# ---- occupancy: against the reference rules ---------------------------------------------------------


def _launch(q):
    p = q.params
    return gpu(p["gpu"]).cc, p["threads"], p["regs"], p["smem"]


def test_blocks_per_sm_answers():
    for q in all_questions("occupancy.blocks_per_sm"):
        cc, th, rg, sm = _launch(q)
        blocks = reference_blocks(cc, th, rg, sm)
        assert q.answer["blocks"] == blocks
        assert q.answer["occupancy"] == pytest.approx(blocks * -(-th // 32) / capability(cc).max_warps_per_sm)


def test_limiter_answers_are_unique_minimums():
    seen = set()
    for q in all_questions("occupancy.limiter"):
        r = q.answer["limiter"]
        seen.add(r)
        from problems.core.occupancy import occupancy

        res = occupancy(*_launch(q))
        assert [str(x) for x in res.limiters] == [r]
        assert res.blocks_per_sm == reference_blocks(*_launch(q))
    assert seen == {"warps", "registers", "shared_memory", "blocks"}


def test_register_budget_by_brute_force_and_closed_form():
    fam = family("occupancy.register_budget")
    for q in all_questions("occupancy.register_budget"):
        p = q.params
        cc = gpu(p["gpu"]).cc
        target = p["target"][0] / p["target"][1]
        w = -(-p["threads"] // 32)
        ok = [r for r in range(1, 256)
              if reference_blocks(cc, p["threads"], r, p["smem"]) * w / capability(cc).max_warps_per_sm >= target - 1e-12]
        assert q.answer["regs"] == max(ok)
        assert fam.closed_form(p)["regs"] == q.answer["regs"]


def test_shared_budget_by_brute_force_and_closed_form():
    from problems.core.occupancy import occupancy

    fam = family("occupancy.shared_budget")
    for q in all_questions("occupancy.shared_budget"):
        p = q.params
        cc, d = gpu(p["gpu"]).cc, q.answer["dynamic"]
        assert occupancy(cc, p["threads"], p["regs"], p["static"], d).blocks_per_sm >= p["blocks"]
        nxt = occupancy(cc, p["threads"], p["regs"], p["static"], d + 1).blocks_per_sm
        assert nxt < p["blocks"]
        assert reference_blocks(cc, p["threads"], p["regs"], p["static"] + d) >= p["blocks"]
        assert fam.closed_form(p) == d


def test_best_block_size_and_co_residence_and_cooperative_grid():
    for q in all_questions("occupancy.best_block_size"):
        p = q.params
        cc = gpu(p["gpu"]).cc
        occ = {s: reference_blocks(cc, s, p["regs"], p["smem_per_thread"] * s) * -(-s // 32) for s in p["options"]}
        assert int(q.answer["threads"]) == max(occ, key=occ.get)
    for q in all_questions("occupancy.co_residence"):
        p = q.params
        fits = p["k"] <= reference_blocks(gpu(p["gpu"]).cc, p["threads"], p["regs"], p["smem"])
        assert q.answer["fits"] == ("yes" if fits else "no")
    for q in all_questions("occupancy.cooperative_grid"):
        cc, th, rg, sm = _launch(q)
        assert q.answer["grid"] == reference_blocks(cc, th, rg, sm) * gpu(q.params["gpu"]).sm_count


def test_seed_two_32x32_blocks_do_not_coreside():
    q = family("occupancy.co_residence").build({"gpu": "rtx-3090", "threads": 1024, "regs": 32, "smem": 0, "k": 2,
                                                "block_2d": [32, 32], "difficulty": 1})
    assert q.answer == {"fits": "no"}


# ---- indexing: forward checks and enumeration --------------------------------------------------------


def test_global_and_inverse_index():
    for q in all_questions("indexing.global_index"):
        p = q.params
        coords = [b * d + t for b, d, t in zip(p["block_idx"], p["block"], p["thread"])]
        if p["dims"] == 1:
            assert q.answer["idx"] == coords[0]
            continue
        assert [q.answer[a] for a in "xyz"[:p["dims"]]] == coords
        w = p["size"][0]
        expected = coords[1] * w + coords[0] if p["dims"] == 2 else (coords[2] * p["size"][1] + coords[1]) * w + coords[0]
        assert q.answer["idx"] == expected
    for q in all_questions("indexing.inverse"):
        p, a = q.params, q.answer
        if p["dims"] == 1:
            assert a["block_x"] * p["block"][0] + a["thread_x"] == p["idx"] and a["thread_x"] < p["block"][0]
        else:
            x = a["block_x"] * p["block"][0] + a["thread_x"]
            y = a["block_y"] * p["block"][1] + a["thread_y"]
            assert y * p["size"][0] + x == p["idx"]
            assert a["thread_x"] < p["block"][0] and a["thread_y"] < p["block"][1]


def test_warp_and_lane_by_enumeration():
    for q in all_questions("indexing.warp_lane"):
        block, th = q.params["block"], q.params["thread"]
        dims = block + [1] * (3 - len(block))
        want = tuple(th + [0] * (3 - len(th)))
        order = [(x, y, z) for z in range(dims[2]) for y in range(dims[1]) for x in range(dims[0])]
        n = order.index(want)
        assert (q.answer["warp"], q.answer["lane"]) == (n // 32, n % 32)
    seed = WarpAndLane().build({"block": [32, 16], "thread": [3, 2], "difficulty": 1})
    assert seed.answer == {"warp": 2, "lane": 3}  # the seed's thread (3,2) in 32x16 is number 67


def test_grid_dims_and_grid_stride_by_enumeration():
    for q in all_questions("indexing.grid_dims"):
        p = q.params
        if "n" in p:
            tb, g = p["block"][0], q.answer["blocks"]
            assert (g - 1) * tb < p["n"] <= g * tb
            assert sum(1 for i in range(g * tb) if i >= p["n"]) == q.answer["idle"]
        else:
            (w, h), (bx, by) = p["size"], p["block"]
            gx, gy = q.answer["grid_x"], q.answer["grid_y"]
            assert (gx - 1) * bx < w <= gx * bx and (gy - 1) * by < h <= gy * by
            assert gx * bx * gy * by - w * h == q.answer["idle"]
    for q in all_questions("indexing.grid_stride"):
        p = q.params
        i, n, count = p["block_idx"] * p["block"] + p["thread"], 0, 0
        while i < p["n"]:
            count, i = count + 1, i + p["grid"] * p["block"]
        assert q.answer == {"stride": p["grid"] * p["block"], "count": count}


def test_wrong_formula_has_exactly_one_wrong_line():
    for q in all_questions("indexing.wrong_formula"):
        lines = q.params["lines"]
        k = "abcd".index(q.answer["wrong"])
        from practice.core.questions.indexing import RIGHT, WRONG

        assert lines[k] in dict(WRONG) and all(line in dict(RIGHT) for j, line in enumerate(lines) if j != k)


# ---- synchronization ------------------------------------------------------------------------------------


def test_classify_snippets_match_their_intent_and_all_outcomes_appear():
    seen = set()
    for q in all_questions("synchronization.classify"):
        intended = snippets.CLASSIFY[q.params["snippet"]][1]
        assert q.answer["outcome"] == intended, q.params
        seen.add(intended)
    assert seen == {"correct", "race", "divergent", "deadlock"}


def test_exited_threads_do_not_block_a_barrier():
    """`if (t < 128) __syncthreads();` with the other threads exiting completes and is legal."""
    from practice.core.questions.syncsim import Outcome, simulate

    assert simulate(snippets.barrier_in_if_others_exit(256, 128), 256).outcome is Outcome.CORRECT
    assert simulate(snippets.both_branches(256, 128), 256).outcome is Outcome.DIVERGENT
    assert simulate(snippets.spin_after_barrier(256, 64), 256).outcome is Outcome.DEADLOCK
    assert simulate(snippets.warp_tail(256, with_syncwarp=False), 256).outcome is Outcome.RACE
    assert simulate(snippets.warp_tail(256, with_syncwarp=True), 256).outcome is Outcome.CORRECT


def test_place_barrier_offers_exactly_one_right_option():
    for q in all_questions("synchronization.place_barrier", range(12)):
        _, offered, results = PlaceBarrier.evaluate(q.params)
        right = [o for o in offered if results[o].outcome == "correct"]
        assert len(right) == 1
    need_two = PlaceBarrier().build({"snippet": "shift", "block": 128, "args": {}, "difficulty": 1})
    labels = {c.key: c.label["en"] for c in need_two.fields[0].choices}
    assert labels[need_two.answer["slots"]] == "__syncthreads() at (A) and (B)"


def test_syncwarp_masks_by_bits():
    for q in all_questions("synchronization.syncwarp_mask"):
        p = q.params
        if p["kind"] == "below":
            assert q.answer["mask"] == 2 ** p["k"] - 1
        elif p["kind"] == "even":
            assert q.answer["mask"] == 0x55555555
        elif p["kind"] == "from":
            assert q.answer["mask"] == 0xFFFFFFFF - (2 ** p["k"] - 1)
        elif p["kind"] == "range":
            assert q.answer["mask"] == sum(1 << lane for lane in range(p["a"], p["b"]))
        else:
            assert q.answer["mask"] == 2 ** (p["block"] - 32 * ((p["block"] - 1) // 32)) - 1


def test_predicate_barriers_by_enumeration():
    for q in all_questions("synchronization.predicate_barrier"):
        p, a = q.params, q.params["args"]
        bx, by = p["block"][0], (p["block"][1] if len(p["block"]) > 1 else 1)
        src = {"below": lambda x, y: x < a["k"], "every": lambda x, y: x % a["m"] == 0,
               "bits": lambda x, y: x & a["mask"] == a["mask"], "data": lambda x, y: x * a["mul"] % a["mod"] > a["limit"],
               "row": lambda x, y: y == a["row"] and x > y, "none": lambda x, y: False}[p["predicate"]]
        vals = [src(x, y) for y in range(by) for x in range(bx)]
        assert q.answer == {"count": sum(vals), "and": "nonzero" if all(vals) else "zero",
                            "or": "nonzero" if any(vals) else "zero"}


def test_grid_sync_uses_co_residency():
    for q in all_questions("synchronization.grid_sync"):
        p = q.params
        g = gpu(p["gpu"])
        fits = p["grid"] <= reference_blocks(g.cc, p["threads"], p["regs"], 0) * g.sm_count
        expected = {"cooperative": "works" if fits else "rejected", "spin_barrier": "not_guaranteed" if fits else "hangs",
                    "plain_grid_sync": "trap", "syncthreads": "block_only", "two_kernels": "works"}[p["scenario"]]
        assert q.answer["result"] == expected


# ---- synchronization: issue 15's "fix first" items ----------------------------------------------------


def test_classify_never_keys_a_shape_the_guide_and_the_hardware_disagree_on():
    """`if (t < k) { __syncthreads(); ... }` with the other threads exiting is undefined by the Guide and
    completes on sm_70+ (docs/synchronization.md rows 3-4): it is never drawn for multiple choice, and
    no worked solution says that a barrier only some threads reach is fine."""
    for d in (1, 2, 3):
        for seed in range(300):
            q = generate("synchronization.classify", seed, d)
            assert q.params["snippet"] not in snippets.EXCLUDED_FROM_CHOICE
            assert "only the remaining threads" not in json.dumps(q.render_solution("en"))


def test_sync_snippets_guard_every_global_access():
    """n = 500 or 5000 leaves the last block partly outside the arrays: every `in[gid]`/`out[gid]` the
    classify and place-barrier snippets show sits behind `gid < n`."""
    for fid in ("synchronization.classify", "synchronization.place_barrier"):
        for d in (1, 2, 3):
            for seed in range(60):
                src = next(b["text"] for b in generate(fid, seed, d).render("en")["prompt"] if b["kind"] == "code")
                for line in src.splitlines():
                    if "in[gid]" in line or "out[gid]" in line:
                        assert "gid < n" in line, (fid, seed, line)


def test_syncwarp_snippet_reads_only_participating_lanes():
    """The lane read after `__syncwarp(MASK)` is one that took part (and so wrote its slot)."""
    for d in (2, 3):
        for seed in range(100):
            q = generate("synchronization.syncwarp_mask", seed, d)
            if q.params["kind"] == "partial_warp":
                continue
            lanes, _, _, _ = type(family("synchronization.syncwarp_mask")).lanes(q.params)
            expr = type(family("synchronization.syncwarp_mask")).partner(q.params)
            for lane in lanes:
                assert eval(expr, {"lane": lane}) in lanes, (q.params, lane)  # C's % on non-negatives


def test_predicate_barrier_code_has_no_statement_inside_a_comment():
    """Each line of the predicate-barrier code ends its statement before any `//` comment."""
    for d in (1, 2, 3):
        for seed in range(100):
            q = generate("synchronization.predicate_barrier", seed, d)
            src = next(b["text"] for b in q.render("en")["prompt"] if b["kind"] == "code")
            for line in src.splitlines():
                assert "//" not in line or line.lstrip().startswith("//"), line


def test_sync_answers_are_not_guessable_over_300_seeds():
    """No option is the answer in more than 40 % of 300 seeds (classify, place_barrier, grid_sync, per
    difficulty), and predicate_barrier's and/or are not the same in more than 75 %."""
    from collections import Counter

    for fid, field, cap in [("synchronization.classify", "outcome", 0.40), ("synchronization.place_barrier", "slots", 0.40),
                            ("synchronization.grid_sync", "result", 0.40), ("synchronization.predicate_barrier", "and", 0.75),
                            ("synchronization.predicate_barrier", "or", 0.75)]:
        for d in (1, 2, 3):
            counts = Counter(generate(fid, seed, d).answer[field] for seed in range(300))
            assert max(counts.values()) <= cap * 300, (fid, d, counts)


def test_sync_difficulty_changes_the_structure():
    """classify, place_barrier and grid_sync draw different snippets or scenarios at each difficulty."""
    for fid, key in [("synchronization.classify", "snippet"), ("synchronization.place_barrier", "snippet"),
                     ("synchronization.grid_sync", "scenario")]:
        kinds = [{generate(fid, seed, d).params[key] for seed in range(120)} for d in (1, 2, 3)]
        assert kinds[0] != kinds[1] and kinds[1] != kinds[2] and kinds[0] != kinds[2], (fid, kinds)


def test_grid_spin_barrier_has_its_fence_and_reset_and_is_not_promised():
    """The hand-written grid barrier shows __threadfence() and the counter reset, and where the grid fits
    it is keyed "may complete on this GPU, not guaranteed" (an ordinary launch promises no co-residency)."""
    seen = set()
    for seed in range(200):
        q = generate("synchronization.grid_sync", seed, 3)
        if q.params["scenario"] != "spin_barrier":
            continue
        src = next(b["text"] for b in q.render("en")["prompt"] if b["kind"] == "code")
        assert "__threadfence();" in src and "cudaMemcpyToSymbol(arrived" in src
        seen.add(q.answer["result"])
    assert seen == {"not_guaranteed", "hangs"}
