"""Rewrite a follow-up question with what the conversation was about, before the caches and retrieval.

"What about my knee?" after "What is the VA rating for tinnitus?" asks "What is the VA rating for my knee?";
"and at 70 percent?" after "What is the PTSD rating at 50 percent?" asks about 70 percent; "how do I apply
for it?" after "What is TDIU?" asks how to apply for TDIU. Rules, not a model: the follow-up's shape (an
opener such as "what about", a bare fragment, or a pronoun standing for something) decides whether it is a
follow-up, and the earlier question's subject (the code, form, benefit or term it names, else the phrase
after its last "for"/"about"/"with"/"of"), percentage or person is swapped for what the follow-up names.
A question naming a subject of its own, without a follow-up opener, is standalone and left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from knowledge.extraction import entities_extract

# At most this many earlier questions are read (the conversation memory keeps five pairs).
HISTORY_MAX = 5
# A fragment this short with no verb of its own ("knee?", "70 percent?") continues the conversation.
FRAGMENT_MAX_WORDS = 3

_OPENER_RE = re.compile(
    r"^(?:(?:and|but|also|so|ok|okay|then)[, ]+)*(?:(?:what|how) about|and|also|but|same for|same)\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|do|does|did|can|could|should|would|will|have|has|get|apply|file|pay|rate[sd]?|"
    r"qualify|need|take|mean|work|happen|use|claim|appeal|send|submit)\b",
    re.IGNORECASE,
)
_PERCENT_RE = re.compile(r"\b\d{1,3}\s*(?:%|percent\b|per cent\b)", re.IGNORECASE)
_PERSON_WORDS = (r"spouse|wife|husband|child|children|kids?|sons?|daughters?|dependents?|survivors?|widow|widower|"
                 r"parents?|family|caregivers?|surviving spouse")
_PERSON_RE = re.compile(rf"\b(?:(?:my|a|an|the|his|her|our|their)\s+)?(?:{_PERSON_WORDS})\b", re.IGNORECASE)
_FOR_PERSON_RE = re.compile(r"^(?:for|to)\s+(?P<person>.+)$", re.IGNORECASE)
# "it", "them", ... standing for the earlier question's subject; not the "it" of "is it true that ...". "That"
# and "this" only at the end or before a preposition: elsewhere they join clauses ("is it true that VA ...").
_PRONOUN_RE = re.compile(
    r"\b(?:it|them|those)\b(?!\s+(?:is|was|'s|true|possible|okay|ok|worth|hard|easy|normal|common|likely|"
    r"necessary|required|too|means?)\b)"
    r"|\b(?:that|this)\b(?=\s*(?:[?.!]|$)|\s+(?:for|to|on|in|with|take|takes|cost|costs|work|works|mean)\b)",
    re.IGNORECASE,
)
_SUBJECT_PHRASE_RE = re.compile(
    r"\b(?:for|about|with|of|on)\s+(?P<subject>(?:(?:my|a|an|the|his|her)\s+)?[\w'/&-]+(?:\s+[\w'/&-]+){0,3}?)"
    r"(?=\s+(?:at|if|when|under|in|to|and|or|after|before|because|since)\b|\s*[?.!,;:]|\s*$)",
    re.IGNORECASE,
)
_PRONOUNS = frozenset({"it", "that", "this", "them", "those", "me", "you", "us"})
# The entity types that name what a question is about; a benefit is broad ("VA disability") and comes last.
_SUBJECT_TYPES = ("dc_code", "va_form", "term")
_TRAILING_PUNCT_RE = re.compile(r"[\s?!.,;:]+$")


@dataclass(frozen=True)
class _Subject:
    start: int
    end: int


def question_rewrite(
    *, question: str, history: Sequence[str], terms: Mapping[str, str] | None = None,
    conditions: Mapping[str, str] | None = None,
) -> str | None:
    """Return ``question`` rewritten as a standalone question from ``history`` (earlier questions, oldest
    first), or None when it stands alone or nothing in the history completes it.

    ``terms`` (lower-case alias → glossary term) and ``conditions`` (lower-case condition name → code) are the
    vocabularies entity extraction reads (knowledge.extraction.entities_extract).
    """
    text = question.strip()
    if not text or not history:
        return None
    names = _subject_names(text, terms, conditions)
    opener = _OPENER_RE.match(text)
    if opener:
        filler = _TRAILING_PUNCT_RE.sub("", opener.group("rest"))
    elif names:
        return None  # names its own subject: standalone
    elif len(text.split()) <= FRAGMENT_MAX_WORDS and not _VERB_RE.search(text):
        filler = _TRAILING_PUNCT_RE.sub("", text)
    else:
        filler = None
    for previous in reversed(history[-HISTORY_MAX:]):
        rewritten = (_filled(previous, filler, terms, conditions) if filler is not None
                     else _pronoun_replaced(text, previous, terms, conditions))
        if rewritten:
            return rewritten
    return None


def _subject_names(text: str, terms, conditions) -> list[str]:
    return [e.text for e in entities_extract(text=text, terms=terms, conditions=conditions)
            if e.type in (*_SUBJECT_TYPES, "benefit")]


def _filled(previous: str, filler: str, terms, conditions) -> str | None:
    """Put ``filler`` where it belongs in ``previous``: a percentage, a person or the subject."""
    if not filler:
        return None
    subject = _subject(previous, terms, conditions)
    asked = _TRAILING_PUNCT_RE.sub("", previous)
    if percent := _PERCENT_RE.search(filler):
        if found := _PERCENT_RE.search(previous):
            return previous[: found.start()] + percent.group() + previous[found.end():]
        return f"{asked} at {percent.group()}?" if subject else None
    for_person = _FOR_PERSON_RE.match(filler)
    if for_person or _PERSON_RE.fullmatch(filler):
        person = for_person.group("person") if for_person else filler
        if found := _PERSON_RE.search(previous):
            return previous[: found.start()] + person + previous[found.end():]
        return f"{asked} for {person}?" if subject else None
    if subject is None:
        return None
    return previous[: subject.start] + filler + previous[subject.end:]


def _pronoun_replaced(text: str, previous: str, terms, conditions) -> str | None:
    pronoun = _PRONOUN_RE.search(text)
    subject = _subject(previous, terms, conditions) if pronoun else None
    if subject is None:
        return None
    return text[: pronoun.start()] + previous[subject.start: subject.end] + text[pronoun.end():]


def _subject(previous: str, terms, conditions) -> _Subject | None:
    """Where ``previous`` names what it is about: the last code, form, term or phrase after "for", "about",
    "with", "of" or "on" ("the VA rating for tinnitus" is about tinnitus), else a benefit it names."""
    entities = entities_extract(text=previous, terms=terms, conditions=conditions)
    lowered = previous.lower()

    def spans(types: tuple[str, ...]) -> list[_Subject]:
        found = [(e, lowered.find(e.text.lower())) for e in entities if e.type in types]
        return [_Subject(start, start + len(e.text)) for e, start in found if start >= 0]

    phrases = [_Subject(m.start("subject"), m.end("subject")) for m in _SUBJECT_PHRASE_RE.finditer(previous)
               if m.group("subject").split()[-1].lower() not in _PRONOUNS
               and not _PERSON_RE.fullmatch(m.group("subject"))]
    candidates = spans(_SUBJECT_TYPES) + phrases or spans(("benefit",))
    return max(candidates, key=lambda subject: subject.start, default=None)
