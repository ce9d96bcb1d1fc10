from django.core.management.base import BaseCommand, CommandError

from knowledge.models import Topic
from knowledge.services import answers_cache_clear

MSG_UNKNOWN_TOPIC = "Unknown topic {topic!r}; topics are: {topics}."
MSG_CLEARED = "{count} answers left the cache{where}; their questions are answered afresh next time."


class Command(BaseCommand):
    help = ("Clear the answer cache, all of it or one topic's. Answers stay stored with their reviews; verified "
            "and flagged ones stay in the cache unless --include-reviewed.")

    def add_arguments(self, parser):
        parser.add_argument("--topic", help="only answers classified under this topic slug")
        parser.add_argument("--include-reviewed", action="store_true",
                            help="also clear verified and flagged answers (reviewers' decisions)")

    def handle(self, *args, **options):
        topic = options["topic"]
        if topic and not Topic.objects.filter(slug=topic).exists():
            topics = ", ".join(Topic.objects.order_by("slug").values_list("slug", flat=True))
            raise CommandError(MSG_UNKNOWN_TOPIC.format(topic=topic, topics=topics))
        count = answers_cache_clear(topic=topic, include_reviewed=options["include_reviewed"])
        self.stdout.write(MSG_CLEARED.format(count=count, where=f" (topic {topic})" if topic else ""))
