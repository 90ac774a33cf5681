"""A printed exam form says what fits paper: the bank statement's "fill in the launch fields under the
editor" becomes "write the launch configuration below your kernel", in both languages (exams.printing)."""
from pathlib import Path

import pytest

from exams.printing import _kernel_text

pytestmark = pytest.mark.django_db
BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


def test_the_printed_statement_asks_to_write_the_launch_below_the_kernel():
    from problems.core.package import load_package
    from problems.services import import_package

    from problems.models import ProblemVersion

    import_package(load_package(BANK / "vector-add-tail"))
    version = ProblemVersion.objects.get(problem__slug="vector-add-tail")
    text = _kernel_text({"kernel": {"version_id": version.pk}})["statement"]
    assert "launch fields under the editor" not in text["en"] and "에디터" not in text["ko"]
    assert "Write the launch configuration (block and grid) below your kernel" in text["en"]
    assert "커널 아래에 실행 구성(block과 grid)을 쓰거나" in text["ko"]
    assert "// launch: block=256" in text["en"]  # the rest of the statement is printed as it is
