import json

from django.core.management.base import BaseCommand, CommandError

from knowledge.selectors import chunks_search


class Command(BaseCommand):
    help = "Print the chunks retrieval finds for a question, with their scores."

    def add_arguments(self, parser):
        parser.add_argument("question")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--top-k", type=int, default=None)
        parser.add_argument("--topic", default=None)
        parser.add_argument("--type", dest="chunk_type", default=None)

    def handle(self, *args, **options):
        question = options["question"].strip()
        if not question:
            raise CommandError("The question is empty.")
        hits = chunks_search(query=question, top_k=options["top_k"], topic=options["topic"],
                             chunk_type=options["chunk_type"])
        if options["json"]:
            rows = [
                {"rank": h.rank, "entry_id": h.entry_id, "similarity": round(h.similarity, 4),
                 "retrievers": list(h.retrievers), "ranks": h.ranks, "topic": h.topic, "title": h.title,
                 "url": h.url, "content": h.content}
                for h in hits
            ]
            self.stdout.write(json.dumps(rows, indent=2, ensure_ascii=False))
            return
        for h in hits:
            self.stdout.write(f"{h.rank}. {h.similarity:.3f} [{'+'.join(h.retrievers)}] {h.entry_id} — {h.title}")
            self.stdout.write(f"   {h.url}")
            self.stdout.write(f"   {h.content[:200].replace(chr(10), ' ')}")
