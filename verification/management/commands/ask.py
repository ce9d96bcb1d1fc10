import json
import sys

from django.core.management.base import BaseCommand, CommandError

from verification.serializers import answer_data
from verification.services import QuestionInvalid, answer_question

MSG_NEED_QUESTION = "Give a QUESTION, or --batch FILE.jsonl."
MSG_BAD_LINE = "{path}: line {line}: {reason}"


class Command(BaseCommand):
    help = "Answer a question (or a JSONL batch) exactly as the API does."

    def add_arguments(self, parser):
        parser.add_argument("question", nargs="?")
        parser.add_argument("--json", action="store_true", help="print the answer object as JSON")
        parser.add_argument("--no-cache", action="store_true", help="skip the answer cache")
        parser.add_argument("--batch", metavar="FILE",
                            help='a JSONL file of {"id": ..., "question": ...} ("input_id" for "id" too)')

    def handle(self, *args, **options):
        use_cache = not options["no_cache"]
        if options["batch"]:
            self._batch(options["batch"], use_cache)
            return
        if options["question"] is None:
            raise CommandError(MSG_NEED_QUESTION)
        try:
            result = answer_question(question=options["question"], use_cache=use_cache)
        except QuestionInvalid as exc:
            raise CommandError(exc.message) from exc
        if options["json"]:
            self.stdout.write(json.dumps(answer_data(result), ensure_ascii=False))
            return
        self.stdout.write(result.answer)
        for citation in result.citations:
            self.stdout.write(f"[{citation['number']}] {citation['title']} — {citation['url']}")
        if result.suggestions:
            self.stdout.write("You could ask about: " + "; ".join(result.suggestions))

    def _batch(self, path: str, use_cache: bool) -> None:
        try:
            handle = sys.stdin if path == "-" else open(path, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from exc
        with handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise CommandError(MSG_BAD_LINE.format(path=path, line=number, reason=exc)) from exc
                if not isinstance(item, dict) or "question" not in item:
                    raise CommandError(MSG_BAD_LINE.format(path=path, line=number, reason='needs a "question"'))
                try:
                    out = answer_data(answer_question(question=item["question"], use_cache=use_cache))
                except QuestionInvalid as exc:
                    out = {"error": {"code": exc.code, "message": exc.message}}
                # `id` is the stored answer's; the input's own id travels beside it, never replacing it. An input
                # may name it as the output does ("input_id").
                input_id = item["id"] if "id" in item else item.get("input_id")
                self.stdout.write(json.dumps({**out, "input_id": input_id}, ensure_ascii=False))
