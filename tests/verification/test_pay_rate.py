""""How much is 70 percent": the level's row of VA's monthly rates table, word for word and cited."""

import re

import pytest

from verification.pipeline.direct import PAY_RATES_URL_SUFFIX, pay_level_asked
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]


@pytest.mark.parametrize(("question", "level"), [
    ("how much is a 70 percent rating per month", 70),
    ("what does 50% pay a month?", 50),
    ("2025 rate for 100 percent with no dependents", 100),
    ("how much do you get for 30 percent", 30),
    ("I'm rated 50%. Do I have to pay copays at the VA?", None),
    ("my dad is going to jail, he's 70% service connected. what happens to his check", None),
    ("how much back pay at 70%", None),
    ("what is the PTSD rating at 70 percent?", None),
    ("how much is 50 and 30 combined", None),
    ("im single and rated 60%, my check is like 1435, am i getting shorted", 60),
    ("I'm 30% and my check went down this month", 30),
    ("im rated 60% single, how much is my monthly check", 60),
    ("rated 60%, how much is the funding fee on my loan", None),
    ("I'm rated 50%, my wife and I want to buy a house", None),
])
def test_a_question_asking_what_one_level_pays_is_told_from_one_giving_it_as_context(question, level):
    assert pay_level_asked(question) == level


def test_the_answer_is_the_levels_row_with_the_tables_lead_and_notes_cited():
    result = answer_question(question="how much is a 70 percent rating per month", use_cache=False)
    assert result.routing_reason == "pay_rate" and not result.refused
    rows = re.findall(r"^- (\d+)% — (\$[\d,.]+) \[1\]$", result.answer, re.MULTILINE)
    assert len(rows) == 1 and rows[0][0] == "70"
    assert f"70% — {rows[0][1]}" in _source_text()  # the cited page's own row, not a figure written here
    assert "no spouse, child or dependent parent" in result.answer and "VA pays more for a spouse" in result.answer
    assert [c["url"].endswith(PAY_RATES_URL_SUFFIX) for c in result.citations] == [True]


def test_zero_percent_says_it_pays_nothing():
    result = answer_question(question="what does 0% pay", use_cache=False)
    assert result.routing_reason == "pay_rate" and "pays no money" in result.answer and "$" not in result.answer


def _source_text() -> str:
    from knowledge import selectors as kb

    return " ".join(h.content for h in kb.source_chunks_get(url_suffix=PAY_RATES_URL_SUFFIX))


def test_an_asker_with_a_family_is_told_first_that_the_row_is_a_veteran_alones():
    result = answer_question(question="how much is 100% va disability with a spouse and 2 kids per month",
                             use_cache=False)
    assert result.routing_reason == "pay_rate"
    first, rest = result.answer.split("\n\n", 1)
    assert "VA pays more for a spouse" in first and "$" not in first
    assert "no spouse, child or dependent parent" in rest and re.search(r"^- 100% — \$", rest, re.MULTILINE)
    # Below 30 percent VA pays no more for a family: the row leads.
    low = answer_question(question="how much is 20% a month, i have a wife and kids", use_cache=False)
    assert low.answer.startswith("How much money VA pays")
