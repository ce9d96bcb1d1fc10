"""Reports resolved before resolutions were recorded get their last change as the time (0004 requires one)."""

from django.db import migrations
from django.db.models import F


def resolved_at_fill(apps, schema_editor):
    LowConfidenceReport = apps.get_model("verification", "LowConfidenceReport")
    LowConfidenceReport.objects.filter(status="resolved", resolved_at__isnull=True).update(resolved_at=F("updated_at"))


class Migration(migrations.Migration):

    dependencies = [
        ('verification', '0002_review_workbench'),
    ]

    operations = [
        migrations.RunPython(resolved_at_fill, migrations.RunPython.noop),
    ]
