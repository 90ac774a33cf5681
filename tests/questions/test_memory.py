"""Memory-access families: sectors from byte addresses, bank passes from word addresses, tiled-matmul loads by
walking every block and phase — all computed here, apart from the families' code."""
import pytest

from practice.core.questions import family

from .familycheck import assert_family_basics, questions

SIZES = {"char": 1, "short": 2, "float": 4, "double": 8, "float4": 16}


@pytest.mark.parametrize("family_id", ["memory.coalescing", "memory.bank_conflicts", "memory.tiling"])
def test_basics(family_id):
    assert_family_basics(family_id)


def n_sectors(addresses, size):
    return len({b // 32 for a in addresses for b in range(a, a + size)})


def test_coalescing_strides_and_offsets():
    """Stride 1 float: 4 sectors; stride 2: 8; stride ≥ 8 floats: 32; a misaligned offset adds a sector."""
    for d in (1, 2):
        for q in questions("memory.coalescing", d):
            size = SIZES[q.params["type"]]
            addrs = [(q.params["offset"] + q.params["stride"] * i) * size for i in range(32)]
            n = n_sectors(addrs, size)
            assert q.answer["sectors"] == n
            assert q.answer["efficiency"] == pytest.approx(32 * size / (32 * n), abs=1e-6)
    q = family("memory.coalescing").build({"kind": "stride", "type": "float", "stride": 2, "offset": 0, "difficulty": 1})
    assert q.answer["sectors"] == 8


def test_coalescing_layouts():
    kinds = set()
    for q in questions("memory.coalescing", 3):
        kinds.add(q.params["kind"])
        if q.params["kind"] == "aos":
            k = q.params["fields"]
            assert q.answer == {"aos": n_sectors([4 * k * i for i in range(32)], 4), "soa": 4}
        else:
            w = q.params["width"]
            assert q.answer == {"row": 4, "col": n_sectors([4 * w * i for i in range(32)], 4)}
    assert kinds == {"aos", "column"}


def passes(words):
    banks = {}
    for w in words:
        banks.setdefault(w % 32, set()).add(w)
    return max(len(s) for s in banks.values())


def test_bank_conflicts_by_words():
    for q in questions("memory.bank_conflicts", 1):
        assert q.answer["degree"] == passes([q.params["k"] * l for l in range(32)])
    for q in questions("memory.bank_conflicts", 2):
        assert q.answer["degree"] == passes([l * q.params["width"] + q.params["c"] for l in range(32)])
    for q in questions("memory.bank_conflicts", 3):
        bx, w = q.params["bx"], q.params["width"]
        tid = [(l % bx, l // bx) for l in range(32)]
        words = [x * w + y for x, y in tid] if q.params["transposed"] else [y * w + x for x, y in tid]
        assert q.answer["degree"] == passes(words)
    pad = family("memory.bank_conflicts").build({"kind": "column", "width": 33, "c": 5, "difficulty": 2})
    nopad = family("memory.bank_conflicts").build({"kind": "column", "width": 32, "c": 5, "difficulty": 2})
    assert (pad.answer["degree"], nopad.answer["degree"]) == (1, 32)


def _walk_loads(m, k, n, T, c=1):
    """In-bounds global loads of a (coarsened) tiled matmul, walking block rows/columns and phases: every block
    of a block row loads the same A tiles, every block of a block column the same B tiles."""
    block_rows, block_cols, phases = -(-m // T), -(-n // (c * T)), -(-k // T)
    a = sum(min(T, m - r * T) * min(T, k - ph * T) for r in range(block_rows) for ph in range(phases))
    b = sum(min(T, k - ph * T) * max(0, min(T, n - (col * c + j) * T))
            for col in range(block_cols) for j in range(c) for ph in range(phases))
    return a * block_cols + b * block_rows


def test_tiling_by_walking_blocks():
    for q in questions("memory.tiling", 1, range(40)):
        n, T = q.params["n"], q.params["tile"]
        assert q.answer == {"phases": n // T, "smem": 2 * T * T * 4, "loads": _walk_loads(n, n, n, T)}
    for q in questions("memory.tiling", 2, range(40)):
        m, k, n, T = (q.params[x] for x in ("m", "k", "n", "tile"))
        assert q.answer == {"blocks": -(-m // T) * -(-n // T), "phases": -(-k // T), "loads": _walk_loads(m, k, n, T)}
    for q in questions("memory.tiling", 3, range(40)):
        n, T, c = q.params["n"], q.params["tile"], q.params["c"]
        assert q.answer == {"smem": (1 + c) * T * T * 4, "loads": _walk_loads(n, n, n, T, c)}
