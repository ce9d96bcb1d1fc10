"""Whether a decision review's one-year window is still open, from the decision letter's date the asker gives.

"Decision letter was dated Nov 5 2025 denying my knee. It's now the end of November 2026, can I still do a higher
level review": a Higher-Level Review or a Board Appeal must be asked for within one year from the date on the
decision letter (VA's decision reviews page), so the answer works the date out and, when the year has passed, says
what remains (a Supplemental Claim with new and relevant evidence, or a clear and unmistakable error).

Read strictly: a month and a year after a word of the decision ("decision", "letter", "denied", "denial"), one
such date only, or how long ago ("denied about 10 months ago": open up to ten months, closed from thirteen, the
months between left to the letter's date); a Board decision (the Court's 120 days), a contested claim (60 days)
or a date in the window's last days without its day are left to the generator.
"""

from __future__ import annotations

import calendar
import datetime
import re
from dataclasses import dataclass

DECISION_REVIEWS_URL_SUFFIX = "/decision-reviews/"
MISSED_DEADLINE_URL_SUFFIX = "/decision-reviews/faq/"

MONTHS = {calendar.month_abbr[i].lower(): i for i in range(1, 13)}  # "jan": 1, ...
_DATE = (r"(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?)?,?"
         r"\s+(?:of\s+)?(?P<year>20\d\d)\b")
_DECISION_DATE_RE = re.compile(
    r"\b(?:decision|letter|denied|denial|denying|decided|rated|rating decision)\b[^.?!\d]{0,40}?\b" + _DATE,
    re.IGNORECASE)
_ANY_DATE_RE = re.compile(r"\b" + _DATE, re.IGNORECASE)
_REVIEW_ASKED_RE = re.compile(r"\b(?:higher[- ]level review|hlr|board appeal|appeal to the board|bva appeal|"
                              r"appeal(?: it| this| that| the decision)?|decision review|notice of disagreement|"
                              # "What review do I do and what's the last day to file it"
                              r"(?:what|which) (?:review|kind of review|type of review))\b",
                              re.IGNORECASE)
_STILL_ASKED_RE = re.compile(r"\b(?:can|could) (?:i|we|he|she) still\b|\btoo late\b|\bstill (?:file|do|ask|request|"
                             r"appeal|time)\b|\bmiss(?:ed)? (?:the|my) (?:deadline|window)\b|\bdeadline\b|"
                             r"\bhow (?:long|much time) do (?:i|we) (?:have|got)\b|\bis (?:it|there) still time\b|"
                             r"\bstill open\b|\bby when\b|\blast day to\b", re.IGNORECASE)
# A Board decision ("my board appeal was denied"): a Higher-Level Review is no option after it, and the Court's window
# is 120 days; a contested claim's is 60; a survivor's or a legacy appeal's are other rules.
_LEFT_ALONE_RE = re.compile(r"\b(?:board|bva|judge)\b[^.?!]{0,25}\b(?:denied|decided|decision|ruled|remanded)\b|"
                            r"\b(?:denied|decided|ruled) by (?:the |a )?(?:board|bva|judge)\b|\b(?:court|cavc|contested|"
                            r"fiduciary|died|passed away|widow\w*|legacy|form 9|soc\b|statement of the case)\b",
                            re.IGNORECASE)


@dataclass(frozen=True)
class ReviewWindow:
    decided: datetime.date  # the decision letter's date (its first day when the asker gives no day)
    day_given: bool
    closes: datetime.date  # one year from the letter's date
    open: bool
    ago: str = ""  # "about 10 months ago": the asker gave how long ago, not a date (``decided`` is then reckoned)


# "Got denied for sleep apnea about 10 months ago, is it too late": how long ago, near a word of the decision.
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple": 2, "a few": 3}
_AGO_RE = re.compile(
    r"\b(?:decision|letter|denied|denial|denying|decided|rated|turned (?:me |it )?down)\b[^.?!\d]{0,40}?"
    r"\b(?P<ago>(?:(?:about|around|like|almost|nearly|roughly|maybe|just|only|over|more than) )?"
    r"(?P<n>\d{1,2}|a couple|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) "
    r"(?P<unit>days?|weeks?|months?|years?|yrs?) ago)\b",
    re.IGNORECASE)
# A denial asked about without naming a review ("got denied ... is it too late to do anything, what are my options").
_DENIAL_OPTIONS_RE = re.compile(r"\b(?:denied|denial|turned (?:me |it )?down)\b[^?!]{0,80}\b(?:options?|do anything|"
                                r"fight (?:it|this)|what can i do|too late)\b", re.IGNORECASE)


def _window_ago(found: re.Match[str], today: datetime.date) -> ReviewWindow | None:
    """The window of a decision told as "about 10 months ago": open well inside the year, closed well past it, and
    None near its end (the letter's date decides)."""
    n = _NUMBER_WORDS.get(found.group("n").lower()) or int(found.group("n"))
    unit = found.group("unit").lower()
    months = n * 12 if unit.startswith(("year", "yr")) else n if unit.startswith("month") else 0
    if unit.startswith(("week", "day")):
        months = (n * (7 if unit.startswith("week") else 1)) // 31
    over = found.group("ago").lower().startswith(("over", "more than"))
    if months <= 10 and not (over and months >= 10):
        still_open = True
    elif months >= 13 or (over and months >= 12):
        still_open = False
    else:
        return None
    decided = today - datetime.timedelta(days=round(months * 30.44))
    return ReviewWindow(decided=decided, day_given=False, closes=one_year_on(decided), open=still_open,
                        ago=found.group("ago"))


def review_window_parse(*, text: str, today: datetime.date) -> ReviewWindow | None:
    """The one-year window of the decision the question dates, or None when it asks no such thing or is unclear."""
    if not (_REVIEW_ASKED_RE.search(text) or _DENIAL_OPTIONS_RE.search(text)) or not _STILL_ASKED_RE.search(text) \
            or _LEFT_ALONE_RE.search(text):
        return None
    dates = list(_DECISION_DATE_RE.finditer(text))
    agos = list(_AGO_RE.finditer(text))
    if agos:
        return _window_ago(agos[0], today) if len(agos) == 1 and not dates and not _ANY_DATE_RE.search(text) else None
    others = [m for m in _ANY_DATE_RE.finditer(text)
              if (int(m.group("year")), MONTHS[m.group("month").lower()[:3]]) != (today.year, today.month)]
    if len(dates) != 1 or len(others) > 1:
        return None  # none, or another date beside it (a second decision, the filing's); "it's now November" is none
    found = dates[0]
    month, year = MONTHS[found.group("month").lower()[:3]], int(found.group("year"))
    day = int(found.group("day")) if found.group("day") else None
    try:
        decided = datetime.date(year, month, day or 1)
    except ValueError:
        return None
    if decided > today:
        return None
    closes = one_year_on(decided)
    if day is None and (closes.year, closes.month) == (today.year, today.month):
        return None  # the window ends this month, on a day the asker did not give
    return ReviewWindow(decided=decided, day_given=day is not None, closes=closes, open=today <= closes)


def first_of_next_month(day: datetime.date) -> datetime.date:
    return (day.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)


def one_year_on(day: datetime.date) -> datetime.date:
    """The same date a year later (February 29 → February 28)."""
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # February 29
        return day.replace(year=day.year + 1, day=28)


def _said(day: datetime.date, *, day_given: bool) -> str:
    return f"{day:%B} {day.day}, {day.year}" if day_given else f"{day:%B %Y}"


def review_window_answer(*, window: ReviewWindow, today: datetime.date) -> str:
    """[1] cites the decision reviews page's deadlines, [2] the page on a missed one."""
    decided = _said(window.decided, day_given=window.day_given)
    closes = _said(window.closes, day_given=window.day_given)
    if window.ago:
        if window.open:
            return (f"Yes, if you file in time: a Higher-Level Review (VA Form 20-0996) or a Board Appeal (VA Form 10182) "
                    f"must be requested within one year from the date on the decision letter [1]. A decision "
                    f"{window.ago} is still inside that year. The year runs from the date printed on the letter, so check "
                    "that date: the request must reach VA within a year of it. A Supplemental Claim (VA Form 20-0995) can "
                    "be filed at any time, but filing within that year protects the earliest effective date and any "
                    "back pay [1].")
        return (f"No, not for that decision: a Higher-Level Review or a Board Appeal must be requested within one year "
                f"from the date on the decision letter [1], and a decision {window.ago} is past that year. You still "
                "have options [2]. You can file a Supplemental Claim (VA Form 20-0995) with new and relevant evidence "
                "at any time; if it is granted, the effective date will generally be tied to when VA received the "
                "Supplemental Claim, not the original claim [2]. If the old decision contained a clear and unmistakable "
                "error, you can ask VA to revise it, which can restore the original effective date [2].")
    if window.open:
        left = (window.closes - today).days
        return (f"Yes, if you file in time: a Higher-Level Review (VA Form 20-0996) or a Board Appeal (VA Form 10182) "
                f"must be requested within one year from the date on the decision letter [1]. For a letter dated "
                f"{decided}, that is by {closes}" + (f", {left} days from today" if window.day_given else "") + ". "
                "A Supplemental Claim (VA Form 20-0995) can be filed at any time, but filing within that year protects "
                "the earliest effective date and any back pay [1].")
    return (f"No, not for that decision: a Higher-Level Review or a Board Appeal must be requested within one year "
            f"from the date on the decision letter [1], and for a letter dated {decided} that year ended "
            f"{'on' if window.day_given else 'in'} {closes}. You still have options [2]. You can file a "
            "Supplemental Claim (VA Form 20-0995) with new and relevant evidence at any time; if it is granted, the "
            "effective date will generally be tied to when VA received the Supplemental Claim, not the original "
            "claim [2]. If the old decision contained a clear and "
            "unmistakable error, you can ask VA to revise it, which can restore the original effective date [2].")
