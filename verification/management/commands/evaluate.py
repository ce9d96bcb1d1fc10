import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from verification.evaluation import GoldenFormatError, baseline_compare, golden_evaluate, golden_load, threshold_sweep


class Command(BaseCommand):
    help = "Score the answer pipeline on a golden set and print the report as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--golden", required=True, help="a JSONL golden set (tests/golden/golden.jsonl)")
        parser.add_argument("--baseline", help="fail (exit 1) when a guarded metric drops > 5 points below it")
        parser.add_argument("--sweep", action="store_true", help="print top-1 similarity per kind and a θmin sweep")
        parser.add_argument("--no-failures", action="store_true", help="leave the list of failed questions out")

    def handle(self, *args, **options):
        try:
            items = golden_load(path=Path(options["golden"]))
        except (OSError, GoldenFormatError) as exc:
            raise CommandError(str(exc)) from exc
        if options["sweep"]:
            thetas = [round(0.20 + 0.01 * i, 2) for i in range(31)]
            self.stdout.write(json.dumps(threshold_sweep(items=items, thresholds=thetas), indent=2))
            return
        report = golden_evaluate(items=items)
        if options["no_failures"]:
            report.pop("failures")
        self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
        if options["baseline"]:
            baseline = json.loads(Path(options["baseline"]).read_text())
            if regressions := baseline_compare(report=report, baseline=baseline):
                raise CommandError("quality regressed: " + "; ".join(regressions))
