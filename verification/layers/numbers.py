"""Layer 5: no figure reaches the user unless a source it cites states it.

The facts checked are the ones a veteran acts on: percentages, dollar amounts, periods ("within 1 year"),
dates, diagnostic codes (every 4-digit number, not only one written "DC nnnn"), VA form numbers and phone
numbers. A sentence with citations is checked against the chunks it cites; one without, against the whole
context. A sentence carrying an unsupported fact is removed whole: a rating sentence with a wrong number is
worse than a shorter answer.

Values compare in the canonical form of ``knowledge.patterns`` ("70%", "171.23", "1 year", "2022-08-10",
"21-526EZ"), so "seventy percent" in a source supports "70%" in an answer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from knowledge.patterns import (
    dates_find,
    dc_codes_find,
    dollar_amounts_find,
    four_digit_numbers_find,
    percentages_find,
    periods_find,
    va_forms_find,
    years_find,
)
from verification.layers.cleanup import (
    citations_used,
    removal_gap,
    sentences_split,
    text_tidy,
)
from verification.layers.types import NumberCheck, SourceChunk

KIND_PERCENTAGE = "percentage"
KIND_DOLLAR_AMOUNT = "dollar_amount"
KIND_PERIOD = "period"
KIND_DATE = "date"
KIND_YEAR = "year"
KIND_DIAGNOSTIC_CODE = "diagnostic_code"
KIND_VA_FORM = "va_form"
KIND_PHONE = "phone"
# Reported in NumberCheck.hallucinated_codes; every other kind goes to hallucinated_numbers.
CODE_KINDS = frozenset({KIND_DIAGNOSTIC_CODE, KIND_VA_FORM})

# Numbers the product itself gives out (refusal.py, the grounding prompt), so an answer may repeat them
# without a source: VA benefits 1-800-827-1000 and VA health benefits 1-877-222-8387 (va.gov/contact-us).
KNOWN_PHONE_NUMBERS = frozenset({"800-827-1000", "877-222-8387"})

# In an answer that cites nothing, a sentence is substantive when it states a fact or has at least this
# many words of three letters or more: "A 10% rating pays $171.23 a month." is, "I hope this helps." is not.
MIN_SUBSTANTIVE_WORDS = 4

_PHONE_RE = re.compile(r"(?<![\d-])(?:1[-. ])?\(?(\d{3})\)?[-. ](\d{3})[-. ](\d{4})(?![\d-])")
# A bare number in a pipe-table cell ("6260 Tinnitus, recurrent | 10"): 38 CFR rating tables give the
# percentage in a "Rating" column without the "%".
_TABLE_CELL_NUMBER_RE = re.compile(r"\|[ \t]*(\d{1,3})[ \t]*(?=\||$)", re.MULTILINE)
_WORD_RE = re.compile(r"[A-Za-z]{3,}")
# Links in an answer are the URL layer's (L3) to check; "digsystem#7207" in one states no code.
_MARKDOWN_LINK_RE = re.compile(r"\[([^\]\n]*)\]\((?:[^()\s]|\([^()\s]*\))+\)")
_BARE_URL_RE = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class FactValue:
    kind: str
    value: str


@dataclass(frozen=True, slots=True)
class SourceFacts:
    percentages: frozenset[str] = frozenset()
    table_numbers: frozenset[str] = frozenset()
    dollar_amounts: frozenset[str] = frozenset()
    periods: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    four_digits: frozenset[str] = frozenset()
    years: frozenset[str] = frozenset()
    forms: frozenset[str] = frozenset()
    phones: frozenset[str] = frozenset()

    def merge(self, other: SourceFacts) -> SourceFacts:
        return SourceFacts(
            percentages=self.percentages | other.percentages,
            table_numbers=self.table_numbers | other.table_numbers,
            dollar_amounts=self.dollar_amounts | other.dollar_amounts,
            periods=self.periods | other.periods,
            dates=self.dates | other.dates,
            four_digits=self.four_digits | other.four_digits,
            years=self.years | other.years,
            forms=self.forms | other.forms,
            phones=self.phones | other.phones,
        )


def _phones_find(text: str) -> list[str]:
    return list(dict.fromkeys("-".join(match.groups()) for match in _PHONE_RE.finditer(text)))


@functools.lru_cache(maxsize=16384)  # answers repeat their sources' sentences
def facts_find(text: str) -> tuple[FactValue, ...]:
    """Return the checkable facts in ``text``, in canonical form and without duplicates."""
    found: list[FactValue] = []
    found += [FactValue(KIND_PERCENTAGE, value) for value in percentages_find(text)]
    found += [FactValue(KIND_DOLLAR_AMOUNT, value) for value in dollar_amounts_find(text)]
    found += [FactValue(KIND_PERIOD, value) for value in periods_find(text)]
    found += [FactValue(KIND_DATE, value) for value in dates_find(text)]
    found += [FactValue(KIND_VA_FORM, value) for value in va_forms_find(text)]
    codes = dc_codes_find(text)
    found += [FactValue(KIND_DIAGNOSTIC_CODE, value) for value in codes]
    years = set(years_find(text))
    for value in four_digit_numbers_find(text):
        if value not in codes:
            found.append(FactValue(KIND_YEAR if value in years else KIND_DIAGNOSTIC_CODE, value))
    found += [FactValue(KIND_PHONE, value) for value in _phones_find(text)]
    return tuple(dict.fromkeys(found))


def chunk_facts(chunk: SourceChunk) -> SourceFacts:
    """Return every fact a chunk states, in its title, content or diagnostic-code field."""
    return _text_facts(chunk.title, chunk.content, chunk.diagnostic_code)


# Keyed by the text, not the SourceChunk: the same chunk comes back with another score for every question.
@functools.lru_cache(maxsize=4096)
def _text_facts(title: str, content: str, diagnostic_code: str) -> SourceFacts:
    text = f"{title}\n{content}"
    four_digits = set(four_digit_numbers_find(text)) | set(dc_codes_find(text)) | set(years_find(text))
    if diagnostic_code:
        four_digits.add(diagnostic_code.strip())
    return SourceFacts(
        percentages=frozenset(percentages_find(text)),
        table_numbers=frozenset(_TABLE_CELL_NUMBER_RE.findall(text)),
        dollar_amounts=frozenset(dollar_amounts_find(text)),
        periods=frozenset(periods_find(text)),
        dates=frozenset(dates_find(text)),
        four_digits=frozenset(four_digits),
        years=frozenset(years_find(text)),
        forms=frozenset(va_forms_find(text)),
        phones=frozenset(_phones_find(text)),
    )


def sources_facts(chunks: Iterable[SourceChunk]) -> SourceFacts:
    return _sources_facts(tuple(chunks))


@functools.lru_cache(maxsize=256)
def _sources_facts(chunks: tuple[SourceChunk, ...]) -> SourceFacts:
    # Every claim of an answer asks again about the same few sources and the same context: merge once.
    facts = SourceFacts()
    for chunk in chunks:
        facts = facts.merge(chunk_facts(chunk))
    return facts


def fact_supported(fact: FactValue, *, sources: SourceFacts, context: SourceFacts) -> bool:
    """Return whether ``sources`` state ``fact``; ``context`` (every chunk given) only exempts years.

    A 4-digit number that some context chunk uses as a year is not checked as a diagnostic code.
    """
    if fact.kind == KIND_PERCENTAGE:
        return fact.value in sources.percentages or fact.value.removesuffix("%") in sources.table_numbers
    if fact.kind == KIND_DOLLAR_AMOUNT:
        return fact.value in sources.dollar_amounts
    if fact.kind == KIND_PERIOD:
        return fact.value in sources.periods
    if fact.kind == KIND_DATE:
        # "August 2022" is supported by "August 10, 2022".
        return any(date == fact.value or date.startswith(fact.value + "-") for date in sources.dates)
    if fact.kind == KIND_VA_FORM:
        return fact.value in sources.forms
    if fact.kind == KIND_PHONE:
        return fact.value in sources.phones or fact.value in KNOWN_PHONE_NUMBERS
    return fact.value in sources.four_digits or fact.value in context.years


def facts_unsupported(
    *, text: str, sources: Sequence[SourceChunk], context: Sequence[SourceChunk]
) -> tuple[FactValue, ...]:
    """Return the facts in ``text``, less its link targets, that ``sources`` do not state."""
    source_facts, context_facts = sources_facts(sources), sources_facts(context)
    text = _BARE_URL_RE.sub(" ", _MARKDOWN_LINK_RE.sub(r"\1", text))
    return tuple(
        fact
        for fact in facts_find(text)
        if not fact_supported(fact, sources=source_facts, context=context_facts)
    )


def sentence_sources(sentence: str, *, chunks: Sequence[SourceChunk]) -> tuple[SourceChunk, ...]:
    """Return the chunks a sentence cites, or every chunk when it cites none.

    A sentence whose every marker names a missing chunk has no sources: nothing in it can be supported.
    """
    cited = citations_used(sentence)
    if not cited:
        return tuple(chunks)
    return tuple(chunk for chunk in chunks if chunk.number in cited)


def _substantive(sentence: str, *, answer_cites: bool) -> bool:
    if citations_used(sentence):
        return True
    if answer_cites:
        return False
    if sentence.rstrip().endswith(":"):
        return False
    return bool(facts_find(sentence)) or len(_WORD_RE.findall(sentence)) >= MIN_SUBSTANTIVE_WORDS


def numbers_verify(*, answer: str, chunks: Sequence[SourceChunk]) -> NumberCheck:
    """Remove every sentence stating a fact its sources do not; report the facts.

    ``refuse`` is set when the answer is blank, or when sentences were removed and nothing substantive is
    left: in an answer that cites, no cited sentence survives; in one that cites nothing, no sentence with a
    fact or four words survives.
    """
    numbers: list[str] = []
    codes: list[str] = []
    removed: list[str] = []
    kept: list[str] = []
    for sentence in sentences_split(answer):
        if not sentence.strip():
            kept.append(sentence)
            continue
        unsupported = facts_unsupported(
            text=sentence, sources=sentence_sources(sentence, chunks=chunks), context=chunks
        )
        if not unsupported:
            kept.append(sentence)
            continue
        removed.append(sentence.strip())
        kept.append(removal_gap(before="".join(kept), sentence=sentence))
        for fact in unsupported:
            bucket = codes if fact.kind in CODE_KINDS else numbers
            if fact.value not in bucket:
                bucket.append(fact.value)
    if not removed:
        return NumberCheck(text=answer, refuse=not answer.strip())
    text = text_tidy("".join(kept))
    answer_cites = bool(citations_used(answer))
    refuse = not any(_substantive(sentence, answer_cites=answer_cites) for sentence in sentences_split(text))
    return NumberCheck(
        text=text,
        hallucinated_numbers=tuple(numbers),
        hallucinated_codes=tuple(codes),
        removed_sentences=tuple(removed),
        refuse=refuse,
    )
