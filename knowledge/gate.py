"""The entity gate: what two questions must share before one's stored answer may serve the other.

An embedding hears "Is sleep apnea rated with a CPAP?" and "... without a CPAP?" as nearly the same question;
the answers differ. So a stored answer is a candidate for another question only when both have the same gate
key: the same top topic; the same diagnostic codes, VA forms and benefits (lay names resolved by extraction:
"ringing in the ears" is DC 6260); the same numbers, digits or spelled out ("fifty percent" is 50); and the
same meaning markers: negation ("not service connected", "without"), comparison ("before 55" / "after 55",
"under 65" / "over 65") and frequency ("once a month" is 1 per month, "every two months" 1 per 2 months).
The word lists are data (``seed/gate_words.json``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from knowledge.patterns import NUMBER_WORDS

GATE_WORDS_FILE = Path(__file__).resolve().parent / "seed" / "gate_words.json"
# The column holds 500 characters; a longer key keeps its readable start and a digest of the whole.
GATE_KEY_MAX_CHARS = 500
# Entity types that change the answer; glossary terms are wording, not meaning ("nexus letter" = "IMO").
GATE_ENTITY_TYPES = ("dc_code", "va_form", "benefit")

_DIGITS_RE = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?")
_NEGATION_SUFFIX_RE = re.compile(r"n['\u2019]t\b")
_SPELLED_RE = re.compile(
    r"\b(?:a|one)\s+hundred\b"
    r"|\b(?P<tens>" + "|".join(w for w, n in NUMBER_WORDS.items() if n >= 20 and n % 10 == 0) + r")"
    r"(?:[\s-](?P<unit>" + "|".join(w for w, n in NUMBER_WORDS.items() if 0 < n < 10) + r"))?\b"
    r"|\b(?P<word>" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b"
)


@dataclass(frozen=True, slots=True)
class QuestionMeaning:
    numbers: tuple[str, ...]
    negated: bool
    comparisons: tuple[str, ...]  # "lt", "gt"
    rates: tuple[str, ...]  # "1/2month": once every two months


@dataclass(frozen=True)
class _Words:
    intent_stop: frozenset[str]
    negation: re.Pattern[str]
    comparisons: tuple[tuple[re.Pattern[str], str], ...]
    counted_rate: re.Pattern[str]
    every_rate: re.Pattern[str]
    bare_rate: re.Pattern[str]
    rate_words: Mapping[str, tuple[int, int, str]]
    rate_word: re.Pattern[str]
    units: Mapping[str, str]
    counts: Mapping[str, int]


def _alternation(words) -> str:
    return "|".join(r"\s+".join(map(re.escape, w.split())) for w in sorted(words, key=len, reverse=True))


@functools.cache
def _words() -> _Words:
    data = json.loads(GATE_WORDS_FILE.read_text(encoding="utf-8"))
    units = data["rate_units"]
    unit_alt = _alternation(units)
    counts = data["counts"]
    comparisons = [(re.compile(rf"\b(?:{_alternation(words)})\b"), kind)
                   for kind, words in data["comparisons"].items()]
    comparisons += [(re.compile(rf"\b(?:{_alternation(words)})\s+(?:the\s+)?(?:age\s+(?:of\s+)?)?\d"), kind)
                    for kind, words in data["comparisons_before_numbers"].items()]
    return _Words(
        intent_stop=frozenset(data["intent_stop_words"]),
        negation=re.compile(rf"\b(?:{_alternation(data['negations'])})\b"),
        comparisons=tuple(comparisons),
        counted_rate=re.compile(rf"\b(?P<count>{_alternation(counts)}|\d+\s+times?)\s+(?:a|an|per|each|every)\s+"
                                rf"(?P<unit>{unit_alt})\b"),
        every_rate=re.compile(rf"\bevery\s+(?:(?P<n>\d+)\s+)?(?:other\s+)?(?P<unit>{unit_alt})\b"),
        bare_rate=re.compile(rf"\b(?:a|an|per|each)\s+(?P<unit>{unit_alt})\b"),
        rate_words={word: tuple(spec) for word, spec in data["rate_words"].items()},
        rate_word=re.compile(rf"\b(?:{_alternation(data['rate_words'])})\b"),
        units=units,
        counts=counts,
    )


def _spelled_to_digits(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        if match.group("tens"):
            return str(NUMBER_WORDS[match.group("tens")] + NUMBER_WORDS.get(match.group("unit") or "", 0))
        if match.group("word"):
            return str(NUMBER_WORDS[match.group("word")])
        return "100"

    return _SPELLED_RE.sub(replace, text)


def question_meaning(*, text: str) -> QuestionMeaning:
    """Return the numbers and the meaning markers of a question (lower case or not)."""
    words = _words()
    text = _spelled_to_digits(text.lower())
    rates: list[str] = []
    consumed = text
    for match in words.counted_rate.finditer(text):
        count = match.group("count")
        n = words.counts.get(count) or int(count.split()[0])
        rates.append(f"{n}/1{words.units[match.group('unit')]}")
    consumed = words.counted_rate.sub(" ", consumed)
    for match in words.every_rate.finditer(consumed):
        every = int(match.group("n") or (2 if "other" in match.group() else 1))
        rates.append(f"1/{every}{words.units[match.group('unit')]}")
    consumed = words.every_rate.sub(" ", consumed)
    for match in words.bare_rate.finditer(consumed):
        rates.append(f"1/1{words.units[match.group('unit')]}")
    for match in words.rate_word.finditer(consumed):
        count, every, unit = words.rate_words[match.group()]
        rates.append(f"{count}/{every}{unit}")
    return QuestionMeaning(
        # A number inside a frequency is part of the rate ("every 2 months" is 1/2month, as "every other month").
        numbers=tuple(sorted({n.replace(",", "") for n in _DIGITS_RE.findall(consumed)})),
        negated=bool(words.negation.search(text) or _NEGATION_SUFFIX_RE.search(text)),
        comparisons=tuple(sorted({kind for pattern, kind in words.comparisons if pattern.search(text)})),
        rates=tuple(sorted(set(rates))),
    )


def gate_key_build(
    *, text: str, entities: Sequence[Mapping[str, str]], topics: Sequence[str], restriction: str = ""
) -> str:
    """Return the gate key of a question: two questions may share a cached answer only when their keys match.

    ``restriction`` is the topic or source the question was kept to (an answer made from the whole corpus may
    cite outside it)."""
    meaning = question_meaning(text=text)
    values = sorted({f"{e['type']}:{e['value']}" for e in entities if e["type"] in GATE_ENTITY_TYPES})
    markers = [*(["neg"] if meaning.negated else []), *(f"cmp:{c}" for c in meaning.comparisons),
               *(f"per:{r}" for r in meaning.rates)]
    key = (f"t:{topics[0] if topics else ''}|e:{','.join(values)}|n:{','.join(meaning.numbers)}"
           f"|m:{','.join(markers)}")
    if restriction:
        key = f"{key}|r:{restriction}"
    if len(key) > GATE_KEY_MAX_CHARS:
        digest = hashlib.sha256(key.encode()).hexdigest()
        key = f"{key[:GATE_KEY_MAX_CHARS - len(digest) - 1]}#{digest}"
    return key


_INTENT_TOKEN_RE = re.compile(r"[a-z]+")
_INTENT_SUFFIXES = ("ings", "ing", "ies", "ied", "es", "ed", "s", "e")


def intent_words(*, text: str, mentions: Sequence[str]) -> str:
    """Return what a question asks beyond the entities it names: its other words, stemmed, sorted, space-separated.

    "What is the rating for TBI?" and "What is the rating for traumatic brain injury?" both give "rat": with the
    same gate key (the same entity), they ask the same thing though their embeddings differ (0.60 with MiniLM).
    ``mentions`` are the entity names as written in ``text``.
    """
    text = text.lower()
    for mention in sorted(mentions, key=len, reverse=True):
        text = text.replace(mention.lower(), " ")
    stop = _words().intent_stop
    stems = set()
    for word in _INTENT_TOKEN_RE.findall(text):
        if word in stop or len(word) < 3:
            continue
        for suffix in _INTENT_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        stems.add(word)
    return " ".join(sorted(stems))


def intent_overlap(first: str, second: str) -> float:
    """Return the Jaccard overlap of two questions' intent words (1.0 when both ask nothing beyond the entities)."""
    a, b = set(first.split()), set(second.split())
    return len(a & b) / len(a | b) if a | b else 1.0


def gate_has_entities(gate_key: str) -> bool:
    """Whether a gate key names a code, form or benefit (what the graph level of the cache keys on)."""
    return "|e:|" not in gate_key and "|e:" in gate_key
