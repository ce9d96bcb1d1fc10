"""A decision review's one-year window worked out from the decision letter's date the question gives."""

import datetime

import pytest

from tests.verification.worked_out import worked_out_answer
from verification.review_deadlines import review_window_answer, review_window_parse

TODAY = datetime.date(2026, 11, 28)


@pytest.mark.parametrize(("question", "closes", "still_open"), [
    ("decision letter was dated Nov 5 2025 denying my knee. it's now the end of november 2026, can I still do a "
     "higher level review", datetime.date(2026, 11, 5), False),
    ("VA denied my back claim on March 3 2026, can i still appeal to the board", datetime.date(2027, 3, 3), True),
    ("my decision letter is from january 2026, whats the deadline for an HLR", datetime.date(2027, 1, 1), True),
    ("decision letter dated december 2025, can I still do a higher level review", datetime.date(2026, 12, 1), True),
    ("got denied in june of 2024 for sleep apnea, is it too late to appeal", datetime.date(2025, 6, 1), False),
    # Which review and its last day (it got the sleep apnea table).
    ("my sleep apnea was denied, decision letter was dated January 15 2025. I don't have any new evidence. What review "
     "do I do and whats the last day to file it", datetime.date(2026, 1, 15), False),
])
def test_the_window_is_one_year_from_the_letters_date(question, closes, still_open):
    window = review_window_parse(text=question, today=TODAY)
    assert (window.closes, window.open) == (closes, still_open)


@pytest.mark.parametrize("question", [
    "how long do I have to file a higher level review",  # no date: the generator answers with the rule
    "the Board denied me on May 2 2026, can I still appeal",  # a Board decision: the Court's 120 days
    "my board appeal was denied in the decision letter dated August 12 2025. can i still file a higher level review",
    "decision letter dated november 2025, can I still do a higher level review",  # ends this month, day unknown
    "my claim was decided March 3 2026 and another on June 4 2026, can i still appeal",  # two dates
    "denied on March 3 2026, what is a higher level review",  # not asked whether still in time
])
def test_questions_it_does_not_read(question):
    assert review_window_parse(text=question, today=TODAY) is None


def test_the_answers_say_the_date_and_what_remains():
    closed = review_window_answer(window=review_window_parse(
        text="decision letter dated Nov 5 2025, can I still do a higher level review", today=TODAY), today=TODAY)
    assert closed.startswith("No, not for that decision")
    assert "that year ended on November 5, 2026" in closed and "Supplemental Claim" in closed and "[2]" in closed
    still = review_window_answer(window=review_window_parse(
        text="VA denied my back claim on March 3 2026, can i still appeal to the board", today=TODAY), today=TODAY)
    assert "by March 3, 2027, 95 days from today" in still and "[2]" not in still


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_pipeline_answers_with_the_date_worked_out_and_cites_the_decision_review_pages():
    from verification.pipeline.direct import REVIEW_WINDOW_MODEL

    result = worked_out_answer("decision letter was dated Nov 5 2024 denying my knee, can I still do a higher level "
                               "review", model=REVIEW_WINDOW_MODEL, routing_reason="review_window")
    assert result.answer.startswith("No, not for that decision") and "November 5, 2025" in result.answer
    assert [c["url"].endswith(("/decision-reviews/", "/decision-reviews/faq/")) for c in result.citations] == [True, True]


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_an_answer_said_against_today_is_never_served_from_the_cache():
    from knowledge.models import AnsweredQuestion
    from verification.services import answer_question

    decided = datetime.date.today() - datetime.timedelta(days=60)  # still open whenever the suite runs
    question = f"VA denied my back claim on {decided:%B} {decided.day} {decided.year}, can i still appeal to the board"
    first = answer_question(question=question)
    assert first.routing_reason == "review_window" and "days from today" in first.answer
    assert not AnsweredQuestion.objects.get(id=first.id).current  # kept for reviewers, out of the cache
    again = answer_question(question=question)
    assert again.cache == "miss" and again.id != first.id


@pytest.mark.parametrize(("question", "still_open"), [
    # It led with the missed-deadline page ("if more than one year has passed ...") ten months after a denial.
    ("got denied for sleep apnea about 10 months ago. is it too late to do anything? what are my options", True),
    ("VA denied me 3 weeks ago, how long do I have to appeal", True),
    ("my claim was denied 2 years ago, can I still appeal", False),
    ("denied over a year ago, can i still appeal", False),
])
def test_a_decision_told_as_how_long_ago_is_inside_or_past_the_year(question, still_open):
    window = review_window_parse(text=question, today=TODAY)
    assert window.open == still_open and window.ago


@pytest.mark.parametrize("question", [
    "denied about 11 months ago can i still do a higher level review",  # near the year's end: the letter's date decides
    "denied a year ago, is it too late to appeal",
])
def test_how_long_ago_near_the_years_end_is_left_to_the_letters_date(question):
    assert review_window_parse(text=question, today=TODAY) is None


def test_the_answer_to_how_long_ago_says_where_the_year_runs_from():
    still = review_window_answer(window=review_window_parse(
        text="got denied for sleep apnea about 10 months ago. is it too late to do anything", today=TODAY), today=TODAY)
    assert still.startswith("Yes, if you file in time") and "A decision about 10 months ago is still inside that year" in still
    assert "the date printed on the letter" in still
    past = review_window_answer(window=review_window_parse(
        text="my claim was denied 2 years ago, can I still appeal", today=TODAY), today=TODAY)
    assert past.startswith("No, not for that decision") and "a decision 2 years ago is past that year" in past
