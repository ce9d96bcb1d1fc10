"""Combined-rating questions answered by the calculator, steps shown, cited to 38 CFR 4.25 (and 4.26)."""

import re

import pytest

from verification.pipeline.direct import CALCULATOR_MODEL, COMBINED_LEAD
from verification.services import answer_question

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]


def ask(question):
    return answer_question(question=question, use_cache=False)


def test_two_ratings_are_combined_with_the_table_not_added():
    result = ask("I have 50 and 30, what is my combined rating")
    assert result.answer.startswith(COMBINED_LEAD.format(rating=70))
    assert "- 50 and 30 combine to 65." in result.answer and "65 is converted" in result.answer
    assert result.model == CALCULATOR_MODEL and result.routing_reason == "combined_ratings" and not result.refused
    assert result.citations and all(c["url"].endswith("/section-4.25") for c in result.citations)
    assert {int(n) for n in re.findall(r"\[(\d+)\]", result.answer)} == {c["number"] for c in result.citations}
    assert "generate" not in [s["stage"] for s in result.trace]


def test_why_ratings_do_not_add_up_says_what_they_make():
    result = ask("why don't 50 and 30 make 80")
    assert "combined rating would be 70%" in result.answer and "not 80." in result.answer


def test_a_sum_to_check_is_answered_with_what_the_ratings_make():
    # "50 and 50 = 100 right??": a sum the asker wants checked, answered "an 80%".
    result = ask("50 and 50 = 100 right??")
    assert result.routing_reason == "combined_ratings"
    assert result.answer.startswith(COMBINED_LEAD.format(rating=80))
    assert "So 50 and 50 give an 80% combined rating, not 100." in result.answer


def test_three_ratings_carry_the_exact_value_between_steps():
    result = ask("I have 60%, 40% and 20%. What's my combined rating?")
    assert "- 60 and 40 combine to 76.\n- 76 and 20 combine to 81." in result.answer
    assert "would be 80%" in result.answer


def test_the_bilateral_factor_is_added_and_cited_to_4_26():
    result = ask("both knees are rated 10 percent each, how does the bilateral factor work")
    assert "10 and 10 combine to 19; 10% of 19 is 1.9, added, not combined, for 20.9, used as 21" in result.answer
    assert "would be 20%" in result.answer
    assert [c["url"].rsplit("/", 1)[-1] for c in result.citations] == ["section-4.25", "section-4.26"]


def test_a_question_without_two_ratings_is_not_a_calculation():
    result = ask("How does VA combine ratings?")
    assert result.model != CALCULATOR_MODEL


@pytest.mark.parametrize(("question", "lines", "rating"), [
    ("two ratings at 70, what do they combine to", ["- 70 and 70 combine to 91."], 90),
    ("three 50% ratings = ?", ["- 50 and 50 combine to 75.", "- 75 and 50 combine to 88."], 90),
    ("I'm at 90 and just got 30 for my back, do I hit 100 now?", ["- 90 and 30 combine to 93."], 90),
])
def test_counts_of_equal_ratings_and_a_hoped_for_total_are_read(question, lines, rating):
    result = ask(question)
    assert result.model == CALCULATOR_MODEL
    assert all(line in result.answer for line in lines) and f"would be {rating}%" in result.answer


def test_one_rating_given_for_both_sides_takes_the_bilateral_factor_before_the_others():
    result = ask("PTSD at 50 percent and both ankles at 10 each, what's my combined with the bilateral factor")
    assert "10 and 10 combine to 19; 10% of 19 is 1.9, added, not combined, for 20.9, used as 21" in result.answer
    assert "- 50 and 21 combine to 61." in result.answer and "would be 60%" in result.answer


def test_a_zero_percent_side_gets_no_bilateral_factor_and_says_why():
    result = ask("my left knee is 20 and right knee 0, do I get the bilateral factor")
    assert "would be 20%" in result.answer and "does not apply" in result.answer
    assert [c["url"].rsplit("/", 1)[-1] for c in result.citations] == ["section-4.25", "section-4.26"]
