"""The first steps of the answer path: take personal details out of a question, then normalise and hash it.

PII is removed before anything is logged, stored, cached or sent to a model. The detectors aim at what a
veteran might type about themselves (SSN, VA file number, phone, email, date of birth) and leave alone the
numbers a benefits question is about: diagnostic codes, form numbers, percentages, dollar amounts, years,
periods, CFR citations and chapter numbers.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass

__all__ = [
    "KIND_CLAIM_NUMBER",
    "KIND_DATE",
    "KIND_DOB",
    "KIND_EMAIL",
    "KIND_PHONE",
    "KIND_SSN",
    "PII_NOTICE",
    "PII_PLACEHOLDERS",
    "PiiScrubResult",
    "pii_scrub",
    "question_hash",
    "question_normalise",
]

KIND_SSN = "ssn"
KIND_CLAIM_NUMBER = "claim_number"
KIND_PHONE = "phone"
KIND_EMAIL = "email"
KIND_DOB = "dob"
KIND_DATE = "date"

PII_PLACEHOLDERS: dict[str, str] = {
    KIND_SSN: "[SSN removed]",
    KIND_CLAIM_NUMBER: "[claim number removed]",
    KIND_PHONE: "[phone removed]",
    KIND_EMAIL: "[email removed]",
    KIND_DOB: "[date of birth removed]",
    KIND_DATE: "[date removed]",
}
PII_NOTICE = (
    "For your privacy, we removed personal details (such as a Social Security number, VA file number, phone "
    "number, email address or date of birth) from your question. They were not stored or shared."
)

# Where two detections overlap, the merged span is labelled with the earlier kind here: a number after
# "claim number" is reported as a claim number even when it is formatted like an SSN.
_PRIORITY = (KIND_EMAIL, KIND_CLAIM_NUMBER, KIND_SSN, KIND_DOB, KIND_PHONE, KIND_DATE)

_EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
_SSN_RE = re.compile(r"(?<![\w.-])\d{3}([-. ])\d{2}\1\d{4}(?![\w-]|\.\d)")
_SSN_LABELLED_RE = re.compile(
    r"\b(?:SSN|SS\s*#|SS\s*No\.?|social(?:\s+security)?(?:\s+(?:number|no\.?|num|#))?)\s*"
    r"(?:#|:|-|is|was)?\s*(?:is\s*)?(?P<value>\d{3}[-.\s]?\d{2}[-.\s]?\d{4})(?![\d-])",
    re.IGNORECASE,
)
_SSN_LAST_FOUR_RE = re.compile(
    r"\b(?:last\s+(?:4|four)(?:\s+digits)?\s+of\s+(?:my\s+)?(?:SSN|social(?:\s+security)?(?:\s+(?:number|#))?)"
    r"|SSN\s+ending\s+in)\s*(?:is|:|=)?\s*(?P<value>\d{4})(?!\d)",
    re.IGNORECASE,
)
# VA file and claim numbers are 8 or 9 digits; only taken after a label, since bare 8-9 digit numbers are
# rare in questions and a false positive would cost the user their question.
_CLAIM_NUMBER_RE = re.compile(
    r"\b(?:claim(?:\s+(?:number|no\.?|num|#|id))?|(?:VA\s+|C-?\s?)file(?:\s+(?:number|no\.?|#))?"
    r"|file\s+(?:number|no\.?|#))\s*(?:#|:|-|is|was)?\s*(?:is\s*)?"
    r"(?P<value>\d{8,9}|\d{3}[-\s]\d{2}[-\s]\d{4})(?![\d-])",
    re.IGNORECASE,
)
_PHONE_RE = re.compile(
    r"(?<![\w-])(?:\+?1[\s.-]?)?(?:\((?P<area>\d{3})\)\s?|(?P<area_plain>\d{3})[\s.-])\d{3}[\s.-]\d{4}(?![\w-])"
)
# Ten digits standing alone (or eleven with the leading 1) are a phone number: VA's claim and file numbers
# have eight or nine, amounts have separators.
_PHONE_BARE_RE = re.compile(r"(?<![\w.,$/-])(?:\+?1)?(?P<area>\d{3})\d{7}(?![\w/-]|[.,]\d)")
_PHONE_LABELLED_RE = re.compile(
    r"\b(?:phone|cell|mobile|tel|telephone|call\s+me\s+at|text\s+me\s+at|reach\s+me\s+at)"
    r"(?:\s+(?:number|no\.?|#))?\s*(?:is|:|at)?\s*(?P<value>\+?1?\d{10})(?!\d)",
    re.IGNORECASE,
)
# Toll-free numbers belong to organisations (VA's own lines among them), not to the person asking.
_TOLL_FREE_AREA_CODES = frozenset({"800", "833", "844", "855", "866", "877", "888"})

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_ANY_DATE = (
    rf"(?:\d{{1,2}}(?P<datesep>[/.-])\d{{1,2}}(?P=datesep)(?:\d{{4}}|\d{{2}})(?![\d/-]|\.\d)"
    rf"|\d{{4}}-\d{{1,2}}-\d{{1,2}}(?![\d-])"
    rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}"
    rf"|{_MONTH},?\s+\d{{4}})"
)
_DOB_RE = re.compile(
    r"\b(?:DOB|D\.O\.B\.?|date\s+of\s+birth|birth\s*date|birthday|born(?:\s+on|\s+in)?)"
    rf"\s*(?:is|was|:|-|on)?\s*(?P<value>{_ANY_DATE})",
    re.IGNORECASE,
)
_SLASH_DATE_RE = re.compile(r"(?<![\w/.-])(?P<month>\d{1,2})(?P<sep>[/-])(?P<day>\d{1,2})(?P=sep)\d{4}(?![\w/-])")

_WHITESPACE_RE = re.compile(r"\s+")
_TRAILING_PUNCTUATION_RE = re.compile(r"[\s?!.,;:]+$")


@dataclass(frozen=True, slots=True)
class PiiScrubResult:
    text: str
    removed: tuple[str, ...]  # kinds removed, each once, in order of first appearance


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int
    kind: str


def pii_scrub(*, text: str) -> PiiScrubResult:
    """Replace personal details with placeholders such as "[SSN removed]"."""
    spans = _spans_merge(_spans_find(text))
    if not spans:
        return PiiScrubResult(text=text, removed=())
    parts: list[str] = []
    cursor = 0
    for span in spans:
        parts.append(text[cursor : span.start])
        parts.append(PII_PLACEHOLDERS[span.kind])
        cursor = span.end
    parts.append(text[cursor:])
    removed = tuple(dict.fromkeys(span.kind for span in spans))
    return PiiScrubResult(text="".join(parts), removed=removed)


def question_normalise(*, text: str) -> str:
    """Return the question as the exact cache compares it: NFKC, no control or format characters, lowercase,
    single spaces, no trailing punctuation."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(_char_clean(char) for char in text)
    text = _WHITESPACE_RE.sub(" ", text.lower()).strip()
    return _TRAILING_PUNCTUATION_RE.sub("", text)


def question_hash(*, text: str, restriction: str = "") -> str:
    """Return the exact cache's key: the normalised question, and the topic or source it was restricted to."""
    key = question_normalise(text=text) + (f"\n{restriction}" if restriction else "")
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _char_clean(char: str) -> str:
    if char.isspace():
        return " "
    # Cc: control characters; Cf: invisible format characters (zero-width space, soft hyphen, BOM).
    return "" if unicodedata.category(char) in ("Cc", "Cf") else char


def _spans_find(text: str) -> list[_Span]:
    spans: list[_Span] = []

    def add(regex: re.Pattern[str], kind: str, group: str | int = 0) -> None:
        for m in regex.finditer(text):
            spans.append(_Span(start=m.start(group), end=m.end(group), kind=kind))

    add(_EMAIL_RE, KIND_EMAIL)
    for m in _SSN_RE.finditer(text):
        if _ssn_possible(m.group()):
            spans.append(_Span(start=m.start(), end=m.end(), kind=KIND_SSN))
    add(_SSN_LABELLED_RE, KIND_SSN, "value")
    add(_SSN_LAST_FOUR_RE, KIND_SSN, "value")
    add(_CLAIM_NUMBER_RE, KIND_CLAIM_NUMBER, "value")
    add(_DOB_RE, KIND_DOB, "value")
    add(_PHONE_LABELLED_RE, KIND_PHONE, "value")
    for m in _PHONE_RE.finditer(text):
        if (m.group("area") or m.group("area_plain")) not in _TOLL_FREE_AREA_CODES:
            spans.append(_Span(start=m.start(), end=m.end(), kind=KIND_PHONE))
    for m in _PHONE_BARE_RE.finditer(text):
        if m.group("area") not in _TOLL_FREE_AREA_CODES:
            spans.append(_Span(start=m.start(), end=m.end(), kind=KIND_PHONE))
    for m in _SLASH_DATE_RE.finditer(text):
        if 1 <= int(m.group("month")) <= 12 and 1 <= int(m.group("day")) <= 31:
            spans.append(_Span(start=m.start(), end=m.end(), kind=KIND_DATE))
    return spans


def _ssn_possible(value: str) -> bool:
    """Whether a 3-2-4 number can be an SSN: SSA never issues area 000, 666 or 9xx, group 00 or serial 0000."""
    digits = re.sub(r"\D", "", value)
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in ("000", "666") and not area.startswith("9") and group != "00" and serial != "0000"


def _spans_merge(spans: list[_Span]) -> list[_Span]:
    """Merge overlapping spans so every detected character goes; label each by _PRIORITY."""
    merged: list[_Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            kind = min(last.kind, span.kind, key=_PRIORITY.index)
            merged[-1] = _Span(start=last.start, end=max(last.end, span.end), kind=kind)
        else:
            merged.append(span)
    return merged
