"""A veteran who gives their own rating and asks their health care priority group is told the group it places them in."""

import pytest

from tests.verification.worked_out import worked_out_answer
from verification.priority_groups import priority_group, priority_group_answer, priority_group_rating_parse


@pytest.mark.parametrize(("question", "rating"), [
    # It led with the income groups 7 and 8.
    ("my combined rating just went up to 40%. what priority group does that put me in for VA health care, and do i "
     "still pay copays", 40),
    ("im rated 70% what priority group am i", 70),
    ("I am 10% service connected, which priority group", 10),
    ("VA bumped me to 60% which priority group now", 60),
])
def test_the_askers_own_rating_beside_the_priority_group_is_read(question, rating):
    assert priority_group_rating_parse(text=question) == rating


@pytest.mark.parametrize("question", [
    "what are the VA health care priority groups",  # no rating: the pages answer
    "I'm rated 0% for a scar, what priority group am I",  # groups 5 and 6 read income and service
    "my husband is 50% service connected, what priority group is he",  # someone else's
    "my claim is pending for 40%, what priority group will I be",
    "I'm 30% and my wife is 20%, what priority groups are we",  # two figures
    "im 10% what is the income limit for priority group 7",  # the income groups asked
])
def test_questions_it_does_not_read(question):
    assert priority_group_rating_parse(text=question) is None


@pytest.mark.parametrize(("rating", "group"), [(100, 1), (50, 1), (40, 2), (30, 2), (20, 3), (10, 3)])
def test_each_rating_falls_in_the_group_the_page_gives_it(rating, group):
    assert priority_group(rating=rating)[0] == group
    assert priority_group_answer(rating=rating).startswith(
        f"Your service-connected rating puts you in priority group {group}:")


def test_only_group_one_is_told_it_pays_no_copays():
    assert "no copays" in priority_group_answer(rating=70)
    assert "copays" not in priority_group_answer(rating=40)
    assert "free in every priority group" in priority_group_answer(rating=40)


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_pipeline_cites_the_groups_page_once_for_words_one_chunk_holds():
    from verification.pipeline.direct import PRIORITY_GROUP_MODEL

    result = worked_out_answer("im rated 70% what priority group am i", model=PRIORITY_GROUP_MODEL,
                               routing_reason="priority_group")
    assert [c["chunk_id"] for c in result.citations] == ["health-priority-groups-1-2"]
    assert result.answer.count("[1]") == 3
    # Every number it states is its source's: the asker's 70 is not said again.
    assert "70" not in result.answer and "50% or more" in result.answer
    result = worked_out_answer("my combined rating just went up to 20%. what priority group does that put me in",
                               model=PRIORITY_GROUP_MODEL, routing_reason="priority_group")
    assert [c["chunk_id"] for c in result.citations] == ["health-priority-groups-3-4", "health-priority-groups-1-2"]
