"""The effective date of a first claim worked out from the asker's separation and filing dates, and when its
payments start.

"I got out of the Marines in August 2024, filed my claim in June 2025, when does my pay start from": a claim VA
receives within one year after separation can take the day after separation as its effective date; one received
later takes the date VA received it, or the date the condition arose if later (38 CFR 3.400(b), VA's effective
date page). Payments start on the first day of the month after the effective date (38 CFR 3.31).

Read strictly: one date of leaving service and one of filing, both with a year or both without one ("getting out
in March, if I file in June"); an intent to file, an increase, a decision review, a survivor's claim, a claim filed
before separation, or a filing in the anniversary month without both days are left to the generator.
"""

from __future__ import annotations

import calendar
import datetime
import re
from dataclasses import dataclass

from verification.review_deadlines import MONTHS, first_of_next_month, one_year_on

EFFECTIVE_DATE_URL_SUFFIX = "/disability/about-disability-ratings/effective-date/"
PAYMENT_START_URL_SUFFIX = "/section-3.31"

_DATE = (r"(?:(?:in|on|of|around|about|early|mid|late|end of|beginning of)\s+)*"
         r"(?P<{p}month>january|february|march|april|may|june|july|august|september|october|november|december|"
         r"jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?"
         r"(?:\s+(?P<{p}day>\d{{1,2}})(?:st|nd|rd|th)?)?(?:,?\s+(?:of\s+)?(?P<{p}year>20\d\d))?\b")
# Between the words of leaving or filing and their date: no other clause ("will it go back to when I got out or
# just June"), no figure but the claim form's number ("submitted my 526 on May 1 2024").
_FILLER = r"(?:(?!\b(?:or|and|but|if|just|when|then|so|file\w*|got|get)\b)(?:[^.?!\d]|(?:21-)?526(?:ez)?)){0,40}?"
_SEPARATED_RE = re.compile(
    r"\b(?:got out|get out|getting out|gettin out|separat\w*|discharg\w*|ets(?:'?d|ed)?|e\.t\.s\.?|"
    r"left (?:the )?(?:army|navy|marines?|marine corps|air force|coast guard|space force|military|service|active duty)|"
    r"retir\w* from (?:the )?(?:army|navy|marines?|marine corps|air force|coast guard|military))"
    r"\b(?:" + _FILLER + r"\s)?" + _DATE.format(p="s"),
    re.IGNORECASE)
_FILED_RE = re.compile(
    r"\b(?:filed|file|filing|submitted|submit|submitting|applied|apply|applying|sent in|send in|put in)\b"
    r"(?:" + _FILLER + r"\s)?" + _DATE.format(p="f"),
    re.IGNORECASE)
_ASKED_RE = re.compile(
    r"\beffective date\b|\bback ?dat\w*|\bbackpay\b|\bback pay\b|\bretro\w*|\bgo back\b|\bgoes back\b|"
    r"\b(?:pay|payments?|money|comp|compensation|it)\b[^.?!]{0,20}\b(?:start|starts|begin|begins|from when)\b|"
    r"\bpaid from\b|\bstart (?:paying|from)\b|\bfrom when\b|\bwhat date\b",
    re.IGNORECASE)
# Other rules, or a date the asker's dates cannot settle: an intent to file, an increase, a review, a survivor's
# claim, a claim before separation (BDD), a reopened or presumptive claim with its own dates.
_LEFT_ALONE_RE = re.compile(
    r"\b(?:intent to file|itf|increase\w*|worse|supplemental|higher[- ]level|hlr|board|appeal\w*|reopen\w*|"
    r"bdd|benefits delivery|before (?:i|my) (?:get out|got out|separat\w*|discharg\w*|ets)|pension|dic|died|"
    r"passed away|widow\w*|survivor\w*|nehmer|agent orange|pact act|presumptive|liberaliz\w*|cue|"
    r"clear and unmistakable|denied|decision)\b",
    re.IGNORECASE)


@dataclass(frozen=True)
class MonthDate:
    month: int
    year: int | None
    day: int | None

    def said(self) -> str:
        name = calendar.month_name[self.month]
        if self.day is not None:
            return f"{name} {self.day}" + (f", {self.year}" if self.year is not None else "")
        return name + (f" {self.year}" if self.year is not None else "")


def _at(date: MonthDate) -> str:
    return f"{'on' if date.day is not None else 'in'} {date.said()}"


@dataclass(frozen=True)
class EffectiveDate:
    separated: MonthDate
    filed: MonthDate
    within_year: bool
    # The day after separation when its day is given; else None (the month is known).
    effective: datetime.date | None


def _date(match: re.Match[str], prefix: str) -> MonthDate:
    year, day = match.group(f"{prefix}year"), match.group(f"{prefix}day")
    return MonthDate(month=MONTHS[match.group(f"{prefix}month").lower()[:3]], year=int(year) if year else None,
                     day=int(day) if day else None)


def effective_date_parse(*, text: str) -> EffectiveDate | None:
    """The effective date the asker's separation and filing dates give, or None when the question asks no such
    thing or its dates do not settle it."""
    if not _ASKED_RE.search(text) or _LEFT_ALONE_RE.search(text):
        return None
    separations, filings = list(_SEPARATED_RE.finditer(text)), list(_FILED_RE.finditer(text))
    if len(separations) != 1 or len(filings) != 1:
        return None
    separated, filed = _date(separations[0], "s"), _date(filings[0], "f")
    if (separated.year is None) != (filed.year is None):
        return None
    if separated.year is None:
        # "Getting out in March, if I file in June": the first June after March; the same month is either.
        if filed.month == separated.month:
            return None
        months_after = (filed.month - separated.month) % 12
    else:
        months_after = (filed.year - separated.year) * 12 + filed.month - separated.month
    if months_after < 0 or (months_after == 0 and (separated.day is None or filed.day is None)):
        return None  # filed before leaving (BDD's rules), or a month the asker's words leave open
    try:
        left = datetime.date(separated.year or 2001, separated.month, separated.day or 1)
        sent = datetime.date(filed.year or left.year + (filed.month < separated.month), filed.month, filed.day or 1)
    except ValueError:
        return None
    if sent < left:
        return None
    if months_after == 12 and (separated.day is None or filed.day is None):
        return None  # the anniversary month: the days decide
    within = sent <= one_year_on(left) if months_after >= 12 else True
    effective = left + datetime.timedelta(days=1) if separated.day is not None and separated.year is not None else None
    return EffectiveDate(separated=separated, filed=filed, within_year=within, effective=effective)


def effective_date_answer(*, found: EffectiveDate) -> str:
    """[1] cites VA's effective date page on a claim within a year of separation, [2] 38 CFR 3.31's payment start."""
    separated, filed = _at(found.separated), _at(found.filed)
    if not found.within_year:
        return (f"From the date VA received your claim, not from your separation: when VA receives a claim more than "
                f"one year after separation, the effective date is the date VA received the claim, or the date the "
                f"condition arose if that is later [1]. A claim filed {filed} after a separation "
                f"{separated} is past that year. Payments start on the first day of the month after the effective "
                f"date [2].")
    if found.effective is not None:
        start = first_of_next_month(found.effective)
        when = (f"the effective date can be {found.effective:%B} {found.effective.day}, {found.effective.year}, the day "
                f"after your separation, as long as the condition existed then [1]. Payments start on the first day "
                f"of the month after the effective date [2]: {start:%B} {start.day}, {start.year}.")
    else:
        month, year = found.separated.month, found.separated.year
        if year is not None:
            start = first_of_next_month(datetime.date(year, month, 1))
            after = first_of_next_month(start)
            last = calendar.monthrange(year, month)[1]
            paid = (f": {start:%B} 1, {start.year}, or {after:%B} 1, {after.year} if you separated on "
                    f"{calendar.month_name[month]} {last}")
        else:
            paid = ""
        when = ("the effective date can be the day after your separation, as long as the condition existed then [1]. "
                f"Payments start on the first day of the month after the effective date [2]{paid}.")
    return (f"From the day after your separation: a claim VA receives within one year after you leave active service "
            f"can take the day after separation as its effective date [1]. A claim filed {filed} after a separation "
            f"{separated} is inside that year, so {when}")
