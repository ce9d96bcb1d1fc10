from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from knowledge.embeddings.base import EmbeddingError
from operations.backup import BackupInvalid, backup_parse, reviews_import

MSG_IMPORTED = (
    "Imported {path}: {answers_created} answers added, {answers_updated} updated, {answers_kept} kept as they were "
    "(the same or a newer review here), {history_created} history records added, {topics_changed} topics and "
    "{entities_changed} entities changed, {chunks_missing} cited chunks missing from the corpus."
)
ERR_READ = "Cannot read {path}: {error}"
ERR_EMBEDDING = "{path}: the embedding model failed ({error}); nothing was imported. Try again when it answers."


class Command(BaseCommand):
    help = "Import a reviews backup made by backup_export; a malformed file is refused and nothing is written."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file")

    def handle(self, *args, **options):
        path = options["path"]
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(ERR_READ.format(path=path, error=getattr(exc, "strerror", None) or exc)) from exc
        try:
            result = reviews_import(data=backup_parse(text=text))
        except BackupInvalid as exc:
            raise CommandError(f"{path}: {exc.message}") from exc
        except EmbeddingError as exc:  # question vectors are made before anything is written
            raise CommandError(ERR_EMBEDDING.format(path=path, error=exc)) from exc
        self.stdout.write(MSG_IMPORTED.format(path=path, **vars(result)))
