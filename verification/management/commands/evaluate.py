import json
import logging
import sys
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from knowledge.corpus_formats import corpus_parse
from knowledge.models import Chunk
from knowledge.services import bundled_corpus_paths, corpus_ingest
from verification.evaluation import (
    GoldenFormatError,
    baseline_build,
    baseline_compare,
    golden_evaluate,
    golden_load,
    handcheck_sample,
    report_table,
    threshold_sweep,
)

MSG_REGRESSED = "quality regressed against {baseline}: {problems}"
MSG_DATABASE = "evaluation database {name}: the bundled corpus only (the served database {served} is untouched)"
# Every golden answer below the warning threshold files a low-confidence report and logs it; during an
# evaluation those lines would bury the report, so they are shown only with --verbosity 2 or more.
QUIET_LOGGERS = ("verification.low_confidence", "verification.answers")
MSG_STALE = "evaluation database {name} held chunks the bundled corpus no longer has: rebuilt"


class Command(BaseCommand):
    help = "Score the answer pipeline on a golden set: per topic and overall, as JSON (or a table with --table)."

    def add_arguments(self, parser):
        parser.add_argument("--golden", required=True, help="a JSONL golden set (tests/golden/golden.jsonl)")
        parser.add_argument("--baseline", help="fail (exit 1) when a guarded metric drops > 3 points below it")
        parser.add_argument("--write-baseline", metavar="PATH", help="write the report's guarded figures as a baseline")
        parser.add_argument("--table", action="store_true", help="print a readable table instead of the JSON")
        parser.add_argument("--json-out", metavar="PATH", help="also write the full JSON report to PATH")
        parser.add_argument("--no-items", action="store_true", help="leave the per-item verdicts out of the JSON")
        parser.add_argument("--no-planted", action="store_true", help="skip the planted-hallucination pass")
        parser.add_argument("--own-database", action="store_true",
                            help="evaluate in a database of its own holding exactly the bundled corpus")
        parser.add_argument("--sweep", action="store_true", help="print top-1 similarity per kind and a θmin sweep")
        parser.add_argument("--handcheck-sample", type=int, metavar="N",
                            help="write N answers sampled across topics (with --seed) for a hand check, to --json-out")
        parser.add_argument("--seed", type=int, default=10)

    def handle(self, *args, **options):
        path = Path(options["golden"])
        try:
            items = golden_load(path=path)
        except (OSError, GoldenFormatError) as exc:
            raise CommandError(str(exc)) from exc
        if options["verbosity"] < 2:
            for name in QUIET_LOGGERS:
                logging.getLogger(name).setLevel(logging.ERROR)
        if options["own_database"]:
            self._use_evaluation_database()
        if options["sweep"]:
            thetas = [round(0.20 + 0.01 * i, 2) for i in range(31)]
            self.stdout.write(json.dumps(threshold_sweep(items=items, thresholds=thetas), indent=2))
            return
        if options["handcheck_sample"]:
            items = handcheck_sample(items=items, count=options["handcheck_sample"], seed=options["seed"])
        report = golden_evaluate(items=items, planted=not options["no_planted"] and not options["handcheck_sample"])
        report = {"golden": str(path), **report}
        if options["no_items"]:
            report.pop("items")
        text = json.dumps(report, indent=2, ensure_ascii=False)
        if options["json_out"]:
            out = Path(options["json_out"])
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text + "\n", encoding="utf-8")
        self.stdout.write(report_table(report, title=str(path)) if options["table"] else text)
        if options["write_baseline"]:
            command = " ".join(["python manage.py evaluate", *sys.argv[2:]])
            Path(options["write_baseline"]).write_text(
                json.dumps(baseline_build(report=report, command=command), indent=2) + "\n", encoding="utf-8")
        if options["baseline"]:
            baseline = json.loads(Path(options["baseline"]).read_text(encoding="utf-8"))
            if problems := baseline_compare(report=report, baseline=baseline):
                raise CommandError(MSG_REGRESSED.format(baseline=options["baseline"], problems="; ".join(problems)))

    def _use_evaluation_database(self) -> None:
        """Switch to `<served>_evaluate`, created on first use and rebuilt when it holds chunks the bundled
        corpus lost; bring it up to date with the bundled corpus (unchanged chunks are never re-embedded)."""
        served = connection.settings_dict["NAME"]
        name = f"{served}_evaluate"
        wanted = {record.entry_id for record in corpus_parse(paths=bundled_corpus_paths(), fmt="vbkb").records}
        self._database_create(name, drop=False)
        connection.settings_dict["NAME"] = name
        call_command("migrate", verbosity=0)
        if Chunk.objects.exclude(entry_id__in=wanted).exists():
            connection.close()
            connection.settings_dict["NAME"] = served
            self._database_create(name, drop=True)
            connection.settings_dict["NAME"] = name
            call_command("migrate", verbosity=0)
            self.stderr.write(MSG_STALE.format(name=name))
        self.stderr.write(MSG_DATABASE.format(name=name, served=served))
        self.stderr.write(corpus_ingest(paths=bundled_corpus_paths(), fmt="vbkb").line())

    @staticmethod
    def _database_create(name: str, *, drop: bool) -> None:
        with connection.cursor() as cursor:
            if drop:
                cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
            if cursor.fetchone() is None:
                cursor.execute(f'CREATE DATABASE "{name}"')
        connection.close()
