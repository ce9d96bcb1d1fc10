import json

import pytest

from tests.knowledge.conftest import SMALL_CORPUS


@pytest.fixture
def small_kb(tmp_path, django_capture_on_commit_callbacks):
    """The small test corpus, ingested and embedded (tinnitus, intent to file, chapter 30, HLR, nexus letter)."""
    from knowledge.services import corpus_ingest

    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL_CORPUS))
    with django_capture_on_commit_callbacks(execute=True):
        corpus_ingest(paths=[path])
    return path


def staff_in_group(django_user_model, username: str, group: str):
    from django.contrib.auth.models import Group

    from verification.review import reviewer_groups_ensure

    reviewer_groups_ensure()
    user = django_user_model.objects.create_user(username, f"{username}@example.org", "pw-long-enough-123",
                                                 is_staff=True)
    user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def reviewer(django_user_model):
    """A staff member in the reviewer group (permissions as granted after every migrate)."""
    from verification.review import REVIEWER_GROUP

    return staff_in_group(django_user_model, "rita", REVIEWER_GROUP)


@pytest.fixture
def second_reviewer(django_user_model):
    from verification.review import REVIEWER_GROUP

    return staff_in_group(django_user_model, "sam", REVIEWER_GROUP)


@pytest.fixture
def reader(django_user_model):
    """A staff member who may read the workbench but decide nothing."""
    from verification.review import READER_GROUP

    return staff_in_group(django_user_model, "rob", READER_GROUP)
