"""Before a question may hold one current answer (0007), keep the best of each question's current answers (a
verified one, else the newest) and take the others out of the cache."""

from django.db import migrations


def keep_one_current(apps, schema_editor):
    AnsweredQuestion = apps.get_model("knowledge", "AnsweredQuestion")
    seen: set[str] = set()
    retired = []
    rows = (AnsweredQuestion.objects.filter(current=True, refused=False)
            .order_by("question_hash", "-verified", "-created_at").values_list("id", "question_hash"))
    for pk, digest in rows.iterator():
        if digest in seen:
            retired.append(pk)
        seen.add(digest)
    AnsweredQuestion.objects.filter(id__in=retired).update(current=False)


class Migration(migrations.Migration):

    dependencies = [
        ('knowledge', '0005_review_workbench'),
    ]

    operations = [
        migrations.RunPython(keep_one_current, migrations.RunPython.noop),
    ]
