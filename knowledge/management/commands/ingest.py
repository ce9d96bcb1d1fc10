import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from knowledge.corpus_formats import CorpusFormatError
from knowledge.models import Chunk
from knowledge.services import bundled_corpus_paths, corpus_ingest

MSG_NO_PATH = "Give a PATH to ingest, or --bundled for the bundled corpus."
MSG_NOT_EMPTY = "The knowledge base already holds {count} chunks; nothing loaded (--if-empty)."
MSG_REJECTED = "Rejected, nothing written: {error}"


class Command(BaseCommand):
    help = "Ingest a corpus file or folder (idempotent by entry_id and content hash)."

    def add_arguments(self, parser):
        parser.add_argument("path", nargs="?", help="a .json (vbkb), .jsonl or folder of .md files")
        parser.add_argument("--format", default="auto", choices=["auto", "vbkb", "jsonl", "markdown"])
        parser.add_argument("--bundled", action="store_true", help="load the corpus shipped in knowledge/corpus")
        parser.add_argument("--if-empty", action="store_true", help="only when the knowledge base has no chunks")

    def handle(self, *args, **options):
        if options["bundled"]:
            paths, fmt = bundled_corpus_paths(), "vbkb"
        elif options["path"]:
            paths, fmt = [Path(options["path"])], options["format"]
        else:
            raise CommandError(MSG_NO_PATH)
        if options["if_empty"] and (count := Chunk.objects.count()):
            self.stdout.write(MSG_NOT_EMPTY.format(count=count))
            return
        bar = tqdm(desc="embedding", unit="chunk", disable=not sys.stderr.isatty(), file=sys.stderr)
        try:
            summary = corpus_ingest(paths=paths, fmt=fmt, progress=bar.update)
        except CorpusFormatError as exc:
            raise CommandError(MSG_REJECTED.format(error=exc)) from exc
        finally:
            bar.close()
        self.stdout.write(summary.line())
