"""Entity extraction (diagnostic codes, VA forms, benefits, glossary terms) and keyword topic classification.

Names and phrases match as whole words, case-insensitively, whatever punctuation or spacing separates the
words ("post 9/11 gi bill", "dependents educational assistance"); where matches overlap the longest wins.
Benefit names and topics are read from knowledge/seed/, lay terms from knowledge/phrases/lay_terms.yaml.
"""

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from knowledge.patterns import dc_codes_match, va_forms_match
from knowledge.phrase_tables import PHRASES_DIR, REGEX, TEXT, phrase_records_get

__all__ = [
    "BENEFITS",
    "BENEFIT_PARTS",
    "DEFAULT_TOPICS",
    "DEFAULT_TOPIC_KEYWORDS",
    "ExtractedEntity",
    "benefit_names_expand",
    "condition_names_build",
    "entities_extract",
    "lay_terms_expand",
    "topics_classify",
]

EntityType = Literal["dc_code", "va_form", "benefit", "term"]


@dataclass(frozen=True, slots=True)
class ExtractedEntity:
    type: EntityType
    value: str  # canonical: "6260", "21-526EZ", a benefit slug, a glossary term
    text: str  # as written in the input


SEED_DIR = Path(__file__).resolve().parent / "seed"
# Slug → names; the first is the display name, the rest are aliases and lay wording. Data, not code: the same
# file seeds the graph's benefit entities (knowledge.services.graph_seed).
_BENEFITS_SEED = json.loads((SEED_DIR / "benefits.json").read_text(encoding="utf-8"))
BENEFITS: dict[str, tuple[str, ...]] = {slug: tuple(names) for slug, names in _BENEFITS_SEED["benefits"].items()}
# Benefit → the benefit it is part of, where the slugs do not say it ("fsgli" → "sgli").
BENEFIT_PARTS: dict[str, str] = dict(_BENEFITS_SEED.get("parts", {}))

# Topic slug → {"name", "keywords"}; seeds the graph's topics, whose keywords reviewers then edit.
DEFAULT_TOPICS: dict[str, dict] = json.loads((SEED_DIR / "topics.json").read_text(encoding="utf-8"))["topics"]

DEFAULT_TOPIC_KEYWORDS: dict[str, tuple[str, ...]] = {
    slug: tuple(spec["keywords"]) for slug, spec in DEFAULT_TOPICS.items()
}


# --- phrase matching --------------------------------------------------------------------------------------

# Text and phrases are compared as sequences of word tokens, so punctuation between words does not matter
# ("post-9/11" = "post 9/11", "dependents'" = "dependents") and a phrase never matches inside a word.
# "&" and "%" are tokens of their own: "A&A" and "100%" keep them.
_TOKEN_RE = re.compile(r"\w+|[&%]")


@dataclass(frozen=True, slots=True)
class _PhraseMatch:
    key: str
    text: str
    start: int
    end: int
    weight: int  # words in the phrase


class _PhraseIndex:
    """Phrases indexed by their first token; `find` returns every occurrence of every phrase."""

    def __init__(self, phrases: Iterable[tuple[str, str]], *, plurals: bool = False) -> None:
        self._by_first: dict[str, list[tuple[tuple[str, ...], str, int]]] = {}
        seen: set[tuple[tuple[str, ...], str]] = set()
        for phrase, key in phrases:
            tokens = tuple(token.lower() for token in _TOKEN_RE.findall(phrase))
            if not tokens:
                continue
            variants = [tokens]
            if plurals and tokens[-1].isalpha():
                variants += [(*tokens[:-1], tokens[-1] + "s"), (*tokens[:-1], tokens[-1] + "es")]
            for variant in variants:
                if (variant, key) not in seen:
                    seen.add((variant, key))
                    self._by_first.setdefault(variant[0], []).append((variant, key, len(phrase.split())))

    def find(self, text: str) -> list[_PhraseMatch]:
        spans = [(m.group().lower(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]
        words = [word for word, _, _ in spans]
        found: list[_PhraseMatch] = []
        for i, word in enumerate(words):
            for tokens, key, weight in self._by_first.get(word, ()):
                j = i + len(tokens)
                if tuple(words[i:j]) == tokens:
                    start, end = spans[i][1], spans[j - 1][2]
                    found.append(_PhraseMatch(key=key, text=text[start:end], start=start, end=end, weight=weight))
        return found


def _longest_first(matches: Iterable[_PhraseMatch]) -> list[_PhraseMatch]:
    """Keep non-overlapping matches, longest first (then leftmost), returned in text order."""
    taken: list[_PhraseMatch] = []
    for match in sorted(matches, key=lambda m: (-(m.end - m.start), m.start)):
        if all(match.end <= t.start or match.start >= t.end for t in taken):
            taken.append(match)
    return sorted(taken, key=lambda m: m.start)


_BENEFIT_INDEX = _PhraseIndex((name, slug) for slug, names in BENEFITS.items() for name in names)


class ByIdentity:
    """A value derived from a mapping, kept while that very object is passed again.

    The reference caches (knowledge.selectors) hand out one glossary or condition-name mapping until they
    reload it, so on the hot path the derived index is found by identity, without reading the mapping: making a
    content key for a 400-alias glossary on every call was the largest cost of entity extraction. The mapping
    is held, so its id cannot be reused while the entry lives; a mapping must not be changed once passed.
    """

    def __init__(self, derive, *, size: int = 8) -> None:
        self._derive = derive
        self._size = size
        self._entries: dict[int, tuple[object, object]] = {}

    def __call__(self, source):
        entry = self._entries.get(id(source))
        if entry is not None and entry[0] is source:
            return entry[1]
        value = self._derive(source)
        if len(self._entries) >= self._size:
            self._entries.clear()
        self._entries[id(source)] = (source, value)
        return value


@functools.lru_cache(maxsize=16)
def _terms_index_build(terms: frozenset[tuple[str, str]]) -> _PhraseIndex:
    return _PhraseIndex(sorted(terms))


_terms_index = ByIdentity(lambda terms: _terms_index_build(frozenset((a.lower(), t) for a, t in terms.items())))


@functools.lru_cache(maxsize=16)
def _topics_index(topics: tuple[tuple[str, tuple[str, ...]], ...]) -> _PhraseIndex:
    return _PhraseIndex(((keyword, slug) for slug, keywords in topics for keyword in keywords), plurals=True)


# --- public -----------------------------------------------------------------------------------------------


# A schedule name shorter than this is too generic to stand for one code ("Ulcer.").
CONDITION_NAME_MIN_CHARS = 6
# Names the schedule gives one code that veterans use for another too: degenerative arthritis is DC 5003, but in
# the back or neck it is the spine's DC 5242 ("degenerative arthritis in my lower back, bending 70 degrees").
AMBIGUOUS_CONDITION_NAMES = frozenset({"degenerative arthritis"})


def condition_names_build(*, codes: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Return the rating schedule's condition names that each name one diagnostic code, lower case → code.

    ``codes`` are (code, name) pairs as in 38 CFR Part 4 ("9432", "Bipolar disorder"). Names the schedule
    gives several codes ("Neuritis.", "Paralysis of") and names of removed codes are left out: they do not say
    which code a question means. A name written as an index entry is read as veterans write it
    (``_name_variants``: "Hernia, ventral, postoperative" → "ventral hernia").
    """
    by_name: dict[str, set[str]] = {}
    for code, name in codes:
        if "removed" in name.lower():
            continue
        for variant in _name_variants(name):
            for part in variant.split(";"):
                key = " ".join(_TOKEN_RE.findall(part.lower()))
                if len(key) >= CONDITION_NAME_MIN_CHARS and key not in AMBIGUOUS_CONDITION_NAMES:
                    by_name.setdefault(key, set()).add(code)
    return {name: next(iter(found)) for name, found in by_name.items() if len(found) == 1}


def _name_variants(name: str) -> list[str]:
    """The schedule's name as a veteran writes it: its qualifier in parentheses left off ("Wrist replacement
    (prosthesis)." → "wrist replacement"), an index entry turned round ("Hernia, ventral" → "ventral hernia",
    "Bladder, injury of" → "injury of bladder" and "bladder injury", "Hernia, ventral, postoperative" → "ventral
    hernia"), "infection" left off a disease's name. A name of other shapes gives none."""
    base = re.sub(r"\s*\([^()]*\)", "", name).strip().rstrip(".").strip()
    if any(mark in base for mark in ":()[]"):
        return []
    parts = [p.strip() for p in base.split(",")]
    if not all(parts) or len(parts) > 3:
        return []
    if len(parts) == 1:
        # "West Nile virus infection" is asked as "West Nile virus".
        return [base, base.removesuffix(" infection")] if base.endswith(" infection") else [base]
    head, rest = parts[0], parts[1]
    if len(parts) == 3:  # "Hernia, ventral, postoperative" → "postoperative ventral hernia", "ventral hernia"
        return [f"{parts[2]} {rest} {head}", f"{rest} {head}"]
    if rest.endswith(" of"):
        return [f"{rest} {head}", f"{head} {rest[:-3]}"]
    # "Laryngectomy, total": the operation is asked by its name alone.
    return [f"{rest} {head}", head] if rest in ("total", "complete") else [f"{rest} {head}"]


@functools.lru_cache(maxsize=16)
def _conditions_index_build(conditions: frozenset[tuple[str, str]]) -> _PhraseIndex:
    return _PhraseIndex(sorted(conditions), plurals=True)


_conditions_index = ByIdentity(lambda conditions: _conditions_index_build(frozenset(conditions.items())))


def entities_extract(
    *, text: str, terms: Mapping[str, str] | None = None, conditions: Mapping[str, str] | None = None
) -> list[ExtractedEntity]:
    """Return the entities in `text` in order of appearance, one per (type, value).

    `terms` maps a lowercase alias to its canonical glossary term; `conditions` maps a lowercase condition
    name of the rating schedule to its diagnostic code ("bipolar disorder" → DC 9432, from
    `condition_names_build`). Matches of different types may overlap ("TDIU" can be both a benefit and a
    term); within a type the longest match wins.
    """
    found: list[tuple[int, ExtractedEntity]] = []
    for match in dc_codes_match(text):
        found.append((match.start, ExtractedEntity(type="dc_code", value=match.value, text=match.text)))
    for match in va_forms_match(text):
        found.append((match.start, ExtractedEntity(type="va_form", value=match.value, text=match.text)))
    for phrase in _longest_first(_BENEFIT_INDEX.find(text)):
        found.append((phrase.start, ExtractedEntity(type="benefit", value=phrase.key, text=phrase.text)))
    if terms:
        for phrase in _longest_first(_terms_index(terms).find(text)):
            found.append((phrase.start, ExtractedEntity(type="term", value=phrase.key, text=phrase.text)))
    if conditions:
        for phrase in _longest_first(_conditions_index(conditions).find(text)):
            found.append((phrase.start, ExtractedEntity(type="dc_code", value=phrase.key, text=phrase.text)))
    found.sort(key=lambda item: item[0])
    seen: set[tuple[str, str]] = set()
    entities: list[ExtractedEntity] = []
    for _, entity in found:
        if (entity.type, entity.value) not in seen:
            seen.add((entity.type, entity.value))
            entities.append(entity)
    return entities


def topics_classify(*, text: str, topics: Mapping[str, Sequence[str]]) -> list[tuple[str, float]]:
    """Score each topic by the keywords found in `text`; return those above zero, best first.

    A keyword counts once per occurrence and weighs its number of words ("ringing in my ears" is stronger
    evidence than "rating"); overlapping keywords of one topic count once, the longest. Ties keep the order
    of `topics`.
    """
    index = _topics_index(tuple((slug, tuple(keywords)) for slug, keywords in topics.items()))
    by_topic: dict[str, list[_PhraseMatch]] = {}
    for match in index.find(text):
        by_topic.setdefault(match.key, []).append(match)
    scored: list[tuple[str, float]] = []
    for slug in topics:
        score = float(sum(match.weight for match in _longest_first(by_topic.get(slug, ()))))
        if score > 0:
            scored.append((slug, score))
    scored.sort(key=lambda item: -item[1])
    return scored


# Everyday words for what the rating schedule names otherwise ("bends" → "flexion"): data, in
# knowledge/phrases/lay_terms.yaml, whose comments say why the schedule's word is added.
LAY_TERMS_FILE = PHRASES_DIR / "lay_terms.yaml"
LAY_TERMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(record["pattern"], re.IGNORECASE), record["term"])
    for record in phrase_records_get(path=LAY_TERMS_FILE, table="lay_terms", fields={"pattern": REGEX, "term": TEXT})
)


@functools.lru_cache(maxsize=4096)  # one question is expanded for its vector, its full-text query and its answer
def lay_terms_expand(*, text: str) -> str:
    """Return ``text`` with the schedule's word for each everyday one it uses, appended once."""
    lowered = text.lower()
    extra = list(dict.fromkeys(term for pattern, term in LAY_TERMS if pattern.search(text) and term.lower() not in lowered))
    return f"{text} {' '.join(extra)}" if extra else text


def benefit_names_expand(*, text: str, benefits: Sequence[str]) -> str:
    """Return ``text`` with the other names of each benefit it names (slugs of BENEFITS), appended once.

    A question may spell a benefit out ("dependency and indemnity compensation") where the chunk that
    answers it uses the short form ("DIC rates"), or the other way round; full-text search needs the word.
    """
    lowered = text.lower()
    extra = [name for slug in dict.fromkeys(benefits) for name in BENEFITS.get(slug, ())
             if name.lower() not in lowered]
    return " ".join([text, *dict.fromkeys(extra)]) if extra else text
