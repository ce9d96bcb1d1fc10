"""A first claim's effective date worked out from the separation and filing dates the question gives."""

import datetime

import pytest

from tests.verification.worked_out import worked_out_answer
from verification.effective_dates import effective_date_answer, effective_date_parse


@pytest.mark.parametrize(("question", "within", "effective"), [
    # It answered with 38 CFR 3.31's example of a claim effective June 14, as if pay began at the filing.
    ("i got out of the marines in august 2024, filed my claim in june 2025. when does my pay start from?", True, None),
    ("got out of the army may 3 2023, submitted my 526 on may 1 2024, will it go back to when I got out", True,
     datetime.date(2023, 5, 4)),
    ("I separated on September 30, 2023 and filed my claim November 15, 2024, what will my effective date be", False,
     datetime.date(2023, 10, 1)),
    ("discharged dec 2022, filed feb 2023 what effective date", True, None),
    # Months without years: the filing month is the first one after leaving.
    ("getting out in march. if i file my disability claim in june will it be backdated to when I got out or just june",
     True, None),
])
def test_the_one_year_rule_is_applied_to_the_dates(question, within, effective):
    found = effective_date_parse(text=question)
    assert (found.within_year, found.effective) == (within, effective)


@pytest.mark.parametrize("question", [
    "how long after I get out can I file and still get back pay",  # no dates: the generator gives the rule
    "left the navy in may 2023 and filed in may 2024, will it backdate",  # the anniversary month without days
    "got out in june 2024, filed an intent to file in july 2024 and the claim in may 2025, effective date?",  # an ITF
    "got out in 2019, filed for an increase in march 2025, when does the increase pay from",  # an increase
    "filed in january 2025 before I got out in march 2025, when does pay start",  # before separation (BDD)
    "got out of the marines in august 2024, filed my claim in june 2025",  # the effective date is not asked
])
def test_questions_it_does_not_read(question):
    assert effective_date_parse(text=question) is None


def test_the_answers_say_the_date_and_when_payments_start():
    month_only = effective_date_answer(found=effective_date_parse(
        text="i got out of the marines in august 2024, filed my claim in june 2025. when does my pay start from?"))
    assert month_only.startswith("From the day after your separation")
    assert "September 1, 2024, or October 1, 2024 if you separated on August 31" in month_only
    dated = effective_date_answer(found=effective_date_parse(
        text="got out of the army may 3 2023, submitted my 526 on may 1 2024, will it go back to when I got out"))
    assert "can be May 4, 2023, the day after your separation" in dated and "[2]: June 1, 2023." in dated
    late = effective_date_answer(found=effective_date_parse(
        text="I separated on September 30, 2023 and filed my claim November 15, 2024, what will my effective date be"))
    assert late.startswith("From the date VA received your claim, not from your separation")
    assert "filed on November 15, 2024 after a separation on September 30, 2023 is past that year" in late


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_pipeline_answers_with_the_rule_applied_and_cites_the_effective_date_pages():
    from verification.pipeline.direct import EFFECTIVE_DATE_MODEL

    result = worked_out_answer("i got out of the marines in august 2024, filed my claim in june 2025. when does my pay "
                               "start from?", model=EFFECTIVE_DATE_MODEL, routing_reason="effective_date")
    assert "inside that year" in result.answer and "September 1, 2024" in result.answer
    assert [c["url"].endswith(("/effective-date/", "/section-3.31")) for c in result.citations] == [True, True]
