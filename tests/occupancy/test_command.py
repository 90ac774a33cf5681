"""`manage.py occupancy`: the model from the shell, as text with the working or as JSON."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_text_output_has_the_working_and_the_result():
    out = StringIO()
    call_command("occupancy", "--cc", "8.6", "--threads", "256", "--regs", "41", "--smem", "2048", stdout=out)
    text = out.getvalue()
    assert "⌈41 × 32 / 256⌉ × 256 = 1536" in text
    assert "blocks/SM 5, active warps 40/48, occupancy 0.833, limiter registers" in text


def test_json_output():
    out = StringIO()
    call_command("occupancy", "--cc", "8.6", "--threads", "256", "--regs", "41", "--smem", "2048", "--json", stdout=out)
    d = json.loads(out.getvalue())
    assert {k: d[k] for k in ("blocks_per_sm", "active_warps", "max_warps", "limiter")} == {
        "blocks_per_sm": 5, "active_warps": 40, "max_warps": 48, "limiter": "registers"}
    assert d["occupancy"] == pytest.approx(40 / 48)


def test_korean_working_and_errors():
    out = StringIO()
    call_command("occupancy", "--cc", "9.0", "--threads", "1024", "--regs", "65", "--lang", "ko", stdout=out)
    assert "넘으므로 실행할 수 없습니다" in out.getvalue() and "launch" not in out.getvalue()
    with pytest.raises(CommandError, match="Unknown compute capability"):
        call_command("occupancy", "--cc", "6.1", "--threads", "256", "--regs", "32")
