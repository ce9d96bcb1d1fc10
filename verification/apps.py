from django.apps import AppConfig
from django.db.models.signals import post_migrate


class VerificationConfig(AppConfig):
    name = 'verification'

    def ready(self):
        # The reviewer groups need the permissions Django creates after migrating, so they are made then too
        # (as Django makes permissions themselves); the service is verification.review.reviewer_groups_ensure.
        post_migrate.connect(_reviewer_groups, sender=self, dispatch_uid="verification_reviewer_groups")


def _reviewer_groups(sender, using="default", **kwargs):
    from verification.review import reviewer_groups_ensure

    reviewer_groups_ensure(using=using)
