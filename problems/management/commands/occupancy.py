"""`manage.py occupancy --cc 8.6 --threads 256 --regs 41 --smem 2048 [--json]`: the occupancy model from the shell."""
import json

from django.core.management.base import BaseCommand, CommandError

from problems.core.gpus import CAPABILITIES, UnknownGPUError
from problems.core.occupancy import OccupancyInputError, occupancy


class Command(BaseCommand):
    help = "Blocks per SM, occupancy and the limiting resource of a launch, with the working."

    def add_arguments(self, parser):
        parser.add_argument("--cc", required=True, help=f"compute capability: {', '.join(CAPABILITIES)}")
        parser.add_argument("--threads", type=int, required=True, help="threads per block")
        parser.add_argument("--regs", type=int, required=True, help="registers per thread")
        parser.add_argument("--smem", type=int, default=0, help="shared memory per block (static, or static + dynamic), bytes")
        parser.add_argument("--dynamic-smem", type=int, default=0, help="dynamic shared memory per block, bytes")
        parser.add_argument("--carveout", type=int, default=None, help="preferred carveout, percent (default: none)")
        parser.add_argument("--lang", default="en", choices=["en", "ko"], help="language of the working")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, **opts):
        try:
            r = occupancy(opts["cc"], opts["threads"], opts["regs"], opts["smem"], opts["dynamic_smem"],
                          carveout=opts["carveout"])
        except (OccupancyInputError, UnknownGPUError) as exc:
            raise CommandError(str(exc)) from exc
        if opts["json"]:
            self.stdout.write(json.dumps(r.to_dict(), ensure_ascii=False, indent=2))
            return
        for step, text in zip(r.steps, r.explain(opts["lang"])):
            self.stdout.write(f"- {text}" + (f"\n    {step.formula}" if step.formula else ""))
        self.stdout.write(
            f"\nblocks/SM {r.blocks_per_sm}, active warps {r.active_warps}/{r.max_warps}, "
            f"occupancy {r.occupancy:.3f}, limiter {r.limiter}"
        )
