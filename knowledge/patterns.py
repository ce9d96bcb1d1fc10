"""Regexes and finders for the facts that answers must not invent: diagnostic codes, VA forms, percentages,
dollar amounts, periods, dates and years.

Entity extraction (knowledge.extraction) and the number/code verifier (verification.layers.numbers) both use
these, so a value found in an answer and the same value found in a source always compare equal: every finder
returns canonical strings, in order of appearance, without duplicates.
"""

import datetime
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

__all__ = [
    "NUMBER_WORDS",
    "PatternMatch",
    "dates_find",
    "dc_codes_find",
    "dc_codes_match",
    "dollar_amounts_find",
    "four_digit_numbers_find",
    "percentages_find",
    "periods_find",
    "va_forms_find",
    "va_forms_match",
    "years_find",
]


@dataclass(frozen=True, slots=True)
class PatternMatch:
    value: str  # canonical, e.g. "6260", "21-526EZ"
    text: str  # as written in the input
    start: int
    end: int


NUMBER_WORDS: dict[str, int] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
# Longest first, so "seventeen" is not read as "seven".
_NUMBER_WORD_ALT = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))

# --- diagnostic codes -------------------------------------------------------------------------------------

# Every 38 CFR Part 4 diagnostic code is 5000-9999, so an unprefixed "5010-5237" pair cannot be a year range.
_DC_PREFIX = r"(?:\bDCs?|\bdiagnostic\s+codes?|(?<!U\.S\.\s)(?<!U\.S\.C\.\s)\bcodes?)"
_DC_SEP = r"\s*(?:,\s*(?:and\s+|or\s+|&\s*)?|/|-|\u2013|&|\band\b|\bor\b|\bto\b|\bthrough\b|\bthru\b)\s*"
_DC_PREFIXED_RE = re.compile(
    rf"{_DC_PREFIX}\s*(?:#|:|-|\.)?\s*(?P<list>\d{{4}}(?:{_DC_SEP}\d{{4}})*)(?!\d)",
    re.IGNORECASE,
)
_DC_PAIR_RE = re.compile(r"(?<![\w-])([5-9]\d{3})-([5-9]\d{3})(?![\w-])")
_FOUR_DIGITS_RE = re.compile(r"\d{4}")
_DIGIT_RUN_RE = re.compile(r"\d+")
_DASHES = "-\u2013"  # hyphen-minus, en dash
_DASH_CODE_RE = re.compile(r"[-\u2013]\d{4}(?!\d)")
_THOUSANDS_RE = re.compile(r",\d{3}(?!\d)")


def dc_codes_match(text: str) -> list[PatternMatch]:
    """Return every diagnostic-code mention in order of appearance (duplicates kept)."""
    found: list[PatternMatch] = []
    if not _FOUR_DIGITS_RE.search(text):  # most sentences have no code: one fast scan instead of the regexes
        return found
    for m in _DC_PREFIXED_RE.finditer(text):
        list_start = m.start("list")
        for i, code in enumerate(_FOUR_DIGITS_RE.finditer(m.group("list"))):
            start = m.start() if i == 0 else list_start + code.start()
            end = list_start + code.end()
            found.append(PatternMatch(value=code.group(), text=text[start:end], start=start, end=end))
    for m in _DC_PAIR_RE.finditer(text):
        for group in (1, 2):
            start, end = m.span(group)
            found.append(PatternMatch(value=m.group(group), text=m.group(group), start=start, end=end))
    found.sort(key=lambda p: (p.start, -(p.end - p.start)))
    return _drop_overlaps(found)


def dc_codes_find(text: str) -> list[str]:
    return _unique(p.value for p in dc_codes_match(text))


def four_digit_numbers_find(text: str) -> list[str]:
    """Return every standalone 4-digit number: not part of a longer number, a decimal, a dollar amount or a
    hyphenated form/phone number. Code pairs ("5010-5237") and "DC6260" count; years count too."""
    found: list[str] = []
    for m in _DIGIT_RUN_RE.finditer(text):
        if len(m.group()) != 4:
            continue
        start, end = m.span()
        before = text[start - 1] if start else ""
        after = text[end] if end < len(text) else ""
        if (before.isalpha() or before == "_") and text[max(0, start - 2) : start].upper() != "DC":
            continue
        if before == "$":
            continue
        if before == "." and start >= 2 and text[start - 2].isdigit():
            continue
        if before and before in _DASHES and not _digit_run_before(text, start - 1, length=4):
            continue  # "21-0966", "827-1000": part of a form or phone number
        if after.isalpha() or after == "_":
            continue
        if after == "." and text[end + 1 : end + 2].isdigit():
            continue
        if after == "," and _THOUSANDS_RE.match(text, end):
            continue
        if after and after in _DASHES and not _DASH_CODE_RE.match(text, end):
            continue
        found.append(m.group())
    return _unique(found)


def _digit_run_before(text: str, index: int, *, length: int) -> bool:
    """Whether exactly `length` digits end just before text[index]."""
    start = index - length
    if start < 0 or not text[start:index].isdigit():
        return False
    return start == 0 or not text[start - 1].isdigit()


# --- VA forms ---------------------------------------------------------------------------------------------

# Prefixes of VA form series (10 health, 20 appeals/decision reviews, 21/21P/21A compensation and pension,
# 22 education, 26 home loans, 27 insurance, 28 VR&E, 29 life insurance, 36 loan guaranty, 40 cemeteries).
_FORM_SERIES = r"(?:10|20|21[PA]?|22|26|27|28|29|36|40)"
# A bare "NN-NN" needs a letter suffix ("10-10EZ", "21-22a"); two-digit numbers alone are ranges too often.
# Some forms carry a part number ("21P-0516-1", "10-7959f-2").
_FORM_NUMBER = r"(?:\d{3,5}[A-Z]{0,4}|\d{1,2}[A-Z]{1,4})(?:-\d{1,2})?"
_NOT_PERCENT = r"(?!\s*(?:%|percent\b|per\s?cent\b))"
_FORM_BARE_RE = re.compile(
    rf"(?<![\w-]){_FORM_SERIES}-{_FORM_NUMBER}(?![\w-]){_NOT_PERCENT}",
    re.IGNORECASE,
)
# After "Form", any series and the 5-digit Board form ("VA Form 10182") count; a 4-digit number only after
# "VA Form" ("VA Form 5655"), since "Form 1040" is the IRS's.
_FORM_PREFIXED_RE = re.compile(
    r"\b(?P<va>VA\s+)?forms?\s*(?:no\.?|number|#)?\s*:?\s*"
    r"(?P<body>\d{2}[A-Z]?-\d{1,5}[A-Z]{0,4}(?:-\d{1,2})?|\d{4,5})(?![\w-])" + _NOT_PERCENT,
    re.IGNORECASE,
)
# The forms veterans name by their number alone ("mail a paper 526ez", "0995 or 0996"): each is that form only.
# A bare 10182 only as a thing filed ("the fax number to send the 10182", "my 10182 form"), not a figure.
_FORM_SHORT = {"526EZ": "21-526EZ", "0995": "20-0995", "0996": "20-0996", "0781": "21-0781", "10182": "10182"}
_FORM_SHORT_RE = re.compile(
    r"(?<![\w$.,-])(?P<body>526\s?-?\s?ez|0995|0996|0781)(?![\w-])|"
    r"\b(?:the|a|my|our|his|her|your|this|that|new|file|filed|filing|submit\w*|send\w*|sent|mail\w*|fax\w*|"
    r"on|with)\s+(?P<board>10182)\b(?![\w-])" + _NOT_PERCENT + r"|(?<![\w$.,-])(?P<named>10182)\s+form\b",
    re.IGNORECASE)
_FORM_SHORT_DIGITS = ("526", "0995", "0996", "0781", "10182")
_FORM_DD_RE = re.compile(r"\bDD\s*[-\u2010]?\s*(?:form\s*)?(?P<body>\d{3,4})(?![\w-])", re.IGNORECASE)
_FORM_SF_RE = re.compile(r"\b(?:SF|standard\s+form)\s*[-\u2010]?\s*(?P<body>\d{2,4})(?![\w-])", re.IGNORECASE)


def va_forms_match(text: str) -> list[PatternMatch]:
    found: list[PatternMatch] = []
    # Each regex tries its alternatives at every word; the word or digits it needs are rarer, found faster.
    lowered = text.lower()
    for m in _FORM_PREFIXED_RE.finditer(text) if "form" in lowered else ():
        if len(m.group("body")) == 4 and not m.group("va"):
            continue
        found.append(PatternMatch(value=m.group("body").upper(), text=m.group(), start=m.start(), end=m.end()))
    for m in _FORM_BARE_RE.finditer(text) if "-" in text else ():
        found.append(PatternMatch(value=m.group().upper(), text=m.group(), start=m.start(), end=m.end()))
    for m in _FORM_SHORT_RE.finditer(text) if any(number in text for number in _FORM_SHORT_DIGITS) else ():
        group = next(name for name in ("body", "board", "named") if m.group(name))
        value = _FORM_SHORT[re.sub(r"[\s-]", "", m.group(group)).upper()]
        found.append(PatternMatch(value=value, text=m.group(group), start=m.start(group), end=m.end(group)))
    for regex, series, hints in ((_FORM_DD_RE, "DD", ("dd",)), (_FORM_SF_RE, "SF", ("sf", "standard"))):
        for m in regex.finditer(text) if any(hint in lowered for hint in hints) else ():
            value = f"{series}-{m.group('body')}"
            found.append(PatternMatch(value=value, text=m.group(), start=m.start(), end=m.end()))
    found.sort(key=lambda p: (p.start, -(p.end - p.start)))
    return _drop_overlaps(found)


def va_forms_find(text: str) -> list[str]:
    return _unique(p.value for p in va_forms_match(text))


# --- percentages ------------------------------------------------------------------------------------------

_PCT_NUM = r"\d{1,3}(?:\.\d+)?"
_PCT_UNIT = r"(?:%|percent\b|per\s?cent\b|pct\b)"
# "10, 20, or 30 percent" and "10-20%" name every number as a percentage.
_PCT_RE = re.compile(
    rf"(?<![\w.$,/-])(?P<list>{_PCT_NUM}(?:\s*%)?(?:\s*(?:,\s*(?:and\s+|or\s+)?|[-\u2013]|\s(?:to|and|or)\s)\s*"
    rf"{_PCT_NUM}(?:\s*%)?)*)\s*{_PCT_UNIT}",
    re.IGNORECASE,
)
_PCT_WORD_RE = re.compile(
    rf"\b(?P<word>(?:one|a)\s+hundred|{_NUMBER_WORD_ALT})\s+(?:percent|per\s?cent)\b",
    re.IGNORECASE,
)
_PCT_NUM_RE = re.compile(_PCT_NUM)
_PCT_WORD_HINT_RE = re.compile(r"cent|pct", re.IGNORECASE)  # what a unit other than "%" spells


def percentages_find(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    if "%" not in text and not _PCT_WORD_HINT_RE.search(text):
        return []
    for m in _PCT_RE.finditer(text):
        for number in _PCT_NUM_RE.finditer(m.group("list")):
            found.append((m.start("list") + number.start(), _decimal_canonical(number.group()) + "%"))
    for m in _PCT_WORD_RE.finditer(text):
        word = m.group("word").lower()
        value = 100 if word.endswith("hundred") else NUMBER_WORDS[word]
        found.append((m.start(), f"{value}%"))
    found.sort(key=lambda item: item[0])
    return _unique(value for _, value in found)


# --- dollar amounts ---------------------------------------------------------------------------------------

_AMOUNT = r"(?P<amount>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d+))?"
_MULTIPLIERS = {"thousand": 1_000, "k": 1_000, "million": 1_000_000, "m": 1_000_000, "billion": 1_000_000_000}
_DOLLAR_RE = re.compile(
    rf"\$\s?{_AMOUNT}(?:\s*(?P<scale>thousand|million|billion)\b|(?P<short>[kKmM])\b)?",
)
_DOLLAR_WORD_RE = re.compile(
    rf"(?<![\w.$,]){_AMOUNT}(?:\s*(?P<scale>thousand|million|billion))?\s+(?:US\s+)?dollars\b",
    re.IGNORECASE,
)


def dollar_amounts_find(text: str) -> list[str]:
    found: list[tuple[int, str]] = []
    if "$" not in text and "dollar" not in text.lower():
        return []
    for regex in (_DOLLAR_RE, _DOLLAR_WORD_RE):
        for m in regex.finditer(text):
            number = m.group("amount").replace(",", "")
            if m.group("cents"):
                number += "." + m.group("cents")
            scale = (m.groupdict().get("scale") or m.groupdict().get("short") or "").lower()
            multiplier = _MULTIPLIERS.get(scale, 1)
            found.append((m.start(), _decimal_canonical(number, multiplier=multiplier)))
    found.sort(key=lambda item: item[0])
    return _unique(value for _, value in found)


# --- periods ----------------------------------------------------------------------------------------------

_PERIOD_RE = re.compile(
    rf"(?<![\w.$,])(?P<number>\d{{1,3}}(?:\.\d+)?|{_NUMBER_WORD_ALT})(?:\s*\(\d{{1,3}}\))?"
    r"(?:\s+|\s*[-\u2010]\s*)(?:(?:calendar|business|working)\s+)?(?P<unit>hour|day|week|month|year)s?\b",
    re.IGNORECASE,
)

_PERIOD_UNIT_RE = re.compile(r"hour|day|week|month|year", re.IGNORECASE)  # one fast scan before the regex


def periods_find(text: str) -> list[str]:
    """Return periods as "<n> <unit>" ("1 year", "90 days"); "one-year" and "60-day" included."""
    found: list[str] = []
    if not _PERIOD_UNIT_RE.search(text):
        return found
    for m in _PERIOD_RE.finditer(text):
        raw = m.group("number").lower()
        number = str(NUMBER_WORDS[raw]) if raw in NUMBER_WORDS else _decimal_canonical(raw)
        unit = m.group("unit").lower()
        found.append(f"{number} {unit}" if number == "1" else f"{number} {unit}s")
    return _unique(found)


# --- dates and years --------------------------------------------------------------------------------------

_MONTHS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = (
    r"(?P<month>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_ORDINAL = r"(?:st|nd|rd|th)?"
_DATE_MDY_RE = re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}}){_ORDINAL},?\s+(?P<year>\d{{4}})(?!\d)", re.IGNORECASE)
_DATE_DMY_RE = re.compile(
    rf"\b(?P<day>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})(?!\d)", re.IGNORECASE
)
_DATE_MY_RE = re.compile(rf"\b{_MONTH},?\s+(?P<year>\d{{4}})(?!\d)", re.IGNORECASE)
_DATE_US_RE = re.compile(
    r"(?<![\d/.-])(?P<month_num>\d{1,2})(?P<sep>[/-])(?P<day>\d{1,2})(?P=sep)(?P<year>\d{4})(?![\d/-])"
)
_DATE_ISO_RE = re.compile(
    r"(?<![\d/.-])(?P<year>\d{4})(?P<sep>[-/])(?P<month_num>\d{1,2})(?P=sep)(?P<day>\d{1,2})(?![\d/-])"
)
_YEARS = range(1800, 2200)
_YEAR_RE = re.compile(r"(?<![\w$.,-])(?:19|20)\d{2}(?![\w%]|[.,]\d)")


def dates_find(text: str) -> list[str]:
    """Return dates as ISO strings: "2022-08-10" for a full date, "1953-08" for a month and year."""
    found: list[tuple[int, int, str]] = []
    if not _FOUR_DIGITS_RE.search(text):  # every date names its year
        return []
    for regex in (_DATE_MDY_RE, _DATE_DMY_RE, _DATE_US_RE, _DATE_ISO_RE, _DATE_MY_RE):
        for m in regex.finditer(text):
            groups = m.groupdict()
            year = int(groups["year"])
            month = _MONTHS[groups["month"].lower()[:3]] if groups.get("month") else int(groups["month_num"])
            if year not in _YEARS or not 1 <= month <= 12:
                continue
            if groups.get("day") is None:
                found.append((m.start(), m.end(), f"{year:04d}-{month:02d}"))
                continue
            try:
                day = datetime.date(year, month, int(groups["day"]))
            except ValueError:
                continue
            found.append((m.start(), m.end(), day.isoformat()))
    found.sort(key=lambda item: (item[0], -(item[1] - item[0])))
    kept: list[str] = []
    last_end = -1
    for start, end, value in found:
        if start >= last_end:
            kept.append(value)
            last_end = end
    return _unique(kept)


def years_find(text: str) -> list[str]:
    """Return every year-like number 1900-2099, including the year inside a written date."""
    return _unique(m.group() for m in _YEAR_RE.finditer(text))


# --- helpers ----------------------------------------------------------------------------------------------


def _decimal_canonical(number: str, *, multiplier: int = 1) -> str:
    """Write a number without grouping or trailing zeros: "3000.00" → "3000", "171.20" → "171.2"."""
    try:
        value = Decimal(number) * multiplier
    except InvalidOperation:
        return number
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def _drop_overlaps(matches: list[PatternMatch]) -> list[PatternMatch]:
    """Keep the first of any matches that overlap; input sorted by start, longest first."""
    kept: list[PatternMatch] = []
    for match in matches:
        if kept and match.start < kept[-1].end:
            continue
        kept.append(match)
    return kept


def _unique(values) -> list[str]:
    return list(dict.fromkeys(values))
