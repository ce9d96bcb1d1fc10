import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from operations.backup import reviews_export

MSG_EXPORTED = (
    "Exported {answers} reviewed answers ({history} history records), {topics} topics and {entities} entities "
    "to {path}."
)
ERR_WRITE = "Cannot write {path}: {error}"


class Command(BaseCommand):
    help = "Export reviewers' work (reviewed answers, their history, edited topics and entities) as a JSON file."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the file to write, or - for standard output")

    def handle(self, *args, **options):
        data = reviews_export()
        text = json.dumps(data, ensure_ascii=False, indent=1)
        path = options["path"]
        if path == "-":
            self.stdout.write(text)
        else:
            self._write(Path(path), text)
        history = sum(len(answer["history"]) for answer in data["answers"])
        summary = MSG_EXPORTED.format(answers=len(data["answers"]), history=history, topics=len(data["topics"]),
                                      entities=len(data["entities"]), path=path)
        (self.stderr if path == "-" else self.stdout).write(summary)

    def _write(self, path: Path, text: str) -> None:
        """Write next to the target, then rename: an interrupted export never leaves half a backup."""
        partial = path.with_name(f".{path.name}.partial")
        try:
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, path)
        except OSError as exc:
            raise CommandError(ERR_WRITE.format(path=path, error=exc.strerror)) from exc
