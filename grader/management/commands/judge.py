"""`manage.py judge FILE.cu --problem SLUG [--backend ...] [--json]`: judge synchronously, no database writes."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from grader.core.backends.registry import get_backend, hang_explainer
from grader.core.judge import LaunchChoice, judge
from grader.core.verdicts import Verdict
from problems.core.package import PackageError
from problems.services import resolve_package


class Command(BaseCommand):
    help = "Judge a kernel file against a problem now, without the queue. Exit status 0 only when ACCEPTED."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the .cu file with the kernel")
        parser.add_argument("--problem", required=True, help="problem slug or package folder")
        parser.add_argument("--backend", default=None, help="emulator | gpu (default: settings)")
        parser.add_argument("--block", default="", help="launch block expression (problems that let you choose)")
        parser.add_argument("--grid", default="", help="launch grid expression")
        parser.add_argument("--shared-bytes", default="", help="dynamic shared memory expression")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, file, problem, backend, block, grid, shared_bytes, json: bool, **options):
        try:
            source = Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        try:
            package = resolve_package(problem)
        except PackageError as exc:
            raise CommandError(str(exc)) from None

        def show(stage, done, total):
            if not json:
                self.stderr.write(f"{stage} {done}/{total}")

        judge_backend = get_backend(backend)
        result = judge(package, source, judge_backend, launch_choice=LaunchChoice(block, grid, shared_bytes),
                       progress=show, target_cc=settings.WARPDRILL_TARGET_CC,
                       max_source_bytes=settings.WARPDRILL_MAX_SOURCE_BYTES, explainer=hang_explainer(judge_backend))
        if json:
            self.stdout.write(_json_dumps(result.to_dict()))
        else:
            self.stdout.write(render_text(result))
        if result.verdict is not Verdict.ACCEPTED:
            raise SystemExit(1)


def _json_dumps(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def render_text(result) -> str:
    """A terminal report of a JudgeResult."""
    lines = [f"verdict: {result.verdict.value}  ({result.backend})", result.message]
    if result.compile and not result.compile.ok:
        lines += [f"  line {m.line}:{m.column}: {m.severity}: {m.message}" for m in result.compile.messages[:20]]
    for t in result.tests:
        lines.append(f"  {t.name:20} {t.verdict.value:14} {t.time_s:7.3f} s  {t.message}")
    for d in result.diagnostics:
        where = f"line {d.line}" if d.line else "?"
        lines.append(f"  [{d.kind}] {where}: {d.message}")
    if result.resources and result.resources.registers is not None:
        r = result.resources
        lines.append(f"  resources: {r.registers} registers/thread, {r.shared_static_bytes} B static shared")
    return "\n".join(line for line in lines if line)
