"""The pure parts of "terminology first": spot a "what is X" question, and find X in the glossary.

A definitional question asks what a term means ("What is a nexus letter?", "define service connection").
A question that asks for a fact about the term ("what is the rating for tinnitus", "what is the deadline to
appeal", "what is my effective date if ...") is not definitional: it goes to normal retrieval, because a
glossary definition would not answer it. "Explain X" counts when X is a bare term ("explain the bilateral
factor"), not a how or a why ("explain how TDIU works").

The glossary is a mapping of canonical term (lower case) to its aliases. Terms match case-, punctuation-
and plural-insensitively ("P&T" = "p and t" = "P & T"; "buddy statements" = "buddy statement").

The grammar of a definitional question is code, below; the words that make "what is X" a fact question are data
(knowledge/phrases/terminology.yaml).
"""

from __future__ import annotations

import difflib
import re
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import cachetools

from knowledge.phrase_tables import PHRASES_DIR, phrases_get

STATUS_FOUND = "found"
STATUS_AMBIGUOUS = "ambiguous"
STATUS_NOT_FOUND = "not_found"

# A glossary term is a short noun phrase; a longer capture is a sentence, not a term.
MAX_TERM_WORDS = 6
MAX_TERM_CHARS = 60
# Three suggestions fit on a phone screen (as in verification.layers.refusal.MAX_SUGGESTIONS).
MAX_SUGGESTIONS = 3
# difflib's own default cutoff for get_close_matches: "nexus leter" → "nexus letter" (0.96) passes,
# "tdiu" → "dic" (0.57) does not.
SUGGESTION_MIN_SIMILARITY = 0.6
# A query whose words are all in a longer term ("nexus" → "nexus letter") is suggested at this score.
SUGGESTION_SUBSET_SIMILARITY = 0.75

# The cache sizes: 1,024 entries hold a glossary index per live version plus the terms asked in a busy
# period; 300 s bounds how long a lookup can outlive a glossary edit made without a new version.
GLOSSARY_CACHE_MAXSIZE = 1024
GLOSSARY_CACHE_TTL_SECONDS = 300.0


@dataclass(frozen=True, slots=True)
class TermMatch:
    status: str
    terms: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GlossaryIndex:
    """A glossary prepared for matching: normalised key → ((rank, canonical), ...), rank 0 for the
    canonical term itself and 1 for an alias."""

    by_key: Mapping[str, tuple[tuple[int, str], ...]]


_QUOTES = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
)
_WHITESPACE_RE = re.compile(r"\s+")
_TRAILING_PUNCT_RE = re.compile(r"[\s?!.,:;]+$")

# Words that may open a definitional question without changing it: "hi, what is TDIU", "can you tell me
# what a nexus letter is", "please define SMC", "explain what P&T means".
_OPENER = (
    r"(?:(?:hi|hello|hey|ok|okay|so|quick question|question)[,!.:]?\s+)?"
    r"(?:(?:please|pls|can you|could you|would you|will you)\s+)*"
)
_ASK = r"(?:(?:tell me|explain to me|remind me|explain|let me know)\s+)?"
_TERM = r"(?P<term>.+?)"
_NAMING = r"(?: the (?:term|word|acronym|abbreviation|phrase))?"
# "in VA terms", "on a VA decision letter": context after "mean", not a fact about the term.
_CONTEXT = (
    r"(?: (?:in|for|on|from|at|according to) (?:the |a )?(?:va|v\.a\.|veterans affairs|military)"
    r"(?: (?:terms|context|claims?|benefits?|disability|speak|lingo|language|world|decision|letters?|forms?))*"
    r"| in (?:va|military|legal|medical) (?:terms|speak|lingo|context)"
    # "on my claim", "in my decision letter", "on the status page": where the term was seen.
    # ("for my back pay" asks what it does to something: a fact question, not this.)
    r"| (?:in|on|from) (?:my|the|a|our|his|her) (?:va )?"
    r"(?:claims?(?: status)?(?: page)?|decision|rating decision|(?:rating |decision |award )?letters?|files?|"
    r"records?|account|paperwork|status(?: page)?|screen|page|tracker|va\.gov|app))?"
)
# "What does VBX status mean": in an explicit meaning question a trailing "status" names the kind of term.
_TRAILING_KIND_RE = re.compile(r"\s+status$")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")


def _anchored(bodies: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(rf"^{_OPENER}{body}$") for body in bodies)


# Questions that ask what a term means in so many words.
_MEANING_RES = _anchored((
    rf"{_ASK}what(?:'s| is| are| was|s) (?:meant by|the meaning of|the definition of) {_TERM}",
    rf"{_ASK}what (?:does|do|did){_NAMING} {_TERM} (?:mean|stand for|refer to)(?: exactly)?{_CONTEXT}",
    rf"{_ASK}what(?:'s| is|s) {_TERM} (?:mean|stand for){_CONTEXT}",
))
_DEFINITION_RES: tuple[re.Pattern[str], ...] = _MEANING_RES + _anchored((
    rf"{_ASK}what {_TERM} (?:is|are|means|stands for){_CONTEXT}",
    rf"{_ASK}what(?:'s| is|s| was){_NAMING} {_TERM}",
    # "What are the presumptive conditions?" asks for a list, not a definition.
    rf"{_ASK}what are (?!the\b){_TERM}",
    rf"(?:define|definition of|defintion of|meaning of|describe|explain){_NAMING}:? {_TERM}",
    rf"{_TERM} (?:meaning|definition|defined|means what|stands for what)",
))

# "in VA terms", "for VA claims", "in the military": context, not part of the term.
_TRAILING_CONTEXT_RE = re.compile(
    r"\s+(?:(?:in|for|on|from|at|with|by|according to) (?:the )?"
    r"(?:va|v\.a\.|veterans affairs|military)(?: (?:terms|context|claims?|benefits?|disability|speak|lingo|"
    r"language|world))?|in (?:va|military|legal|medical) (?:terms|speak|lingo|context)|exactly|again|please|"
    r"actually|simply|in (?:plain|simple|everyday|normal|regular) (?:english|terms|words|language)|"
    r"in lay(?:man|men)'?s terms|for dummies|in a nutshell|in short|briefly)$"
)
_LEADING_ARTICLE_RE = re.compile(r"^(?:(?:a|an|the)\s+)+")
_EDGE_PUNCT_RE = re.compile(r"^[\s\"'`()\[\]{}<>*_:;,.!?-]+|[\s\"'`()\[\]{}<>*_:;,.!?-]+$")

# A term that contains one of these is a fact question about something, not a term to define ("what is the
# deadline to appeal"). Data, in knowledge/phrases/terminology.yaml, with the reason for each entry that needs one.
TERMINOLOGY_PHRASES_FILE = PHRASES_DIR / "terminology.yaml"
NOT_DEFINITIONAL_PHRASES = phrases_get(path=TERMINOLOGY_PHRASES_FILE, table="not_definitional_phrases")
# Amounts and citations; outside the word-bounded table because "70%" has no boundary before "%".
_NOT_DEFINITIONAL_SYMBOLS_RE = re.compile(r"[%$§]")
# "What's in ...", "what's new with ...", "what's going on with ...", "what's the point of a 0 percent rating":
# not a term.
_NOT_A_TERM_START_RE = re.compile(
    r"^(?:in|on|at|to|for|from|with|by|of|about|up|going|happening|new|wrong|left|next|involved|"
    r"point|purpose|deal|catch|advantage|downside|upside|benefit of|use of|value of|reason for)(?!\w)"
)
_PARENTHETICAL_RE = re.compile(r"\s*\([^()]*\)")
_NOT_DEFINITIONAL_RE = re.compile(r"(?<!\w)(?:" + "|".join(NOT_DEFINITIONAL_PHRASES) + r")(?!\w)")
_HAS_LETTER_RE = re.compile(r"[a-z]")


def _question_normalise(question: str) -> str:
    text = _WHITESPACE_RE.sub(" ", question.translate(_QUOTES).casefold()).strip()
    return _TRAILING_PUNCT_RE.sub("", text)


def _term_clean(term: str) -> str:
    # "Section 107 (Location-Based Housing Allowance)": the parenthetical restates the term.
    term = _EDGE_PUNCT_RE.sub("", _PARENTHETICAL_RE.sub("", term))
    previous = None
    while previous != term:
        previous = term
        term = _TRAILING_CONTEXT_RE.sub("", term)
        term = _LEADING_ARTICLE_RE.sub("", term)
        term = _EDGE_PUNCT_RE.sub("", term)
    return _WHITESPACE_RE.sub(" ", term).strip()


def _term_acceptable(term: str) -> bool:
    return (
        bool(term)
        and len(term) <= MAX_TERM_CHARS
        and len(term.split()) <= MAX_TERM_WORDS
        and bool(_HAS_LETTER_RE.search(term))
        and not _NOT_DEFINITIONAL_RE.search(term)
        and not _NOT_DEFINITIONAL_SYMBOLS_RE.search(term)
        and not _NOT_A_TERM_START_RE.match(term)
    )


# "a DRO in the old appeals system", "a MET for heart ratings": the term, then where it is used.
_TERM_HEAD_RE = re.compile(
    r"^(?P<head>.+?) (?:in|for|on|under|during|with|from|at|after|before|when) (?P<context>(?!of\b)\S.*)$")
# "Aggravation of a preexisting condition": one word, then a case of what it applies to (the glossary names
# "aggravation"). A name with "of" keeps it ("character of discharge", "statement of the case").
_TERM_OF_RE = re.compile(r"^(?P<head>[\w-]+) of (?:a|an|my|your|his|her|their) \S")
TERM_HEAD_MIN_CHARS = 2


# "a permanent and total rating", "VALife insurance": a kind-of-thing noun after the term the glossary names.
_TRAILING_KIND_NOUN_RE = re.compile(r"\s+(?:ratings?|status|program|benefits?|insurance|payments?)$")


def term_candidates(*, term: str) -> tuple[str, ...]:
    """Return ``term`` and, when a phrase of place or use follows it, the term alone ("dro in the old appeals
    system" → "dro"), and without a trailing kind-of-thing noun ("permanent and total rating" → "permanent and
    total"): the glossary and the sources name the term, not the asker's context."""
    found = _TERM_HEAD_RE.match(term) or _TERM_OF_RE.match(term)
    head = _term_clean(found.group("head")) if found else term
    heads = [head, _TRAILING_KIND_NOUN_RE.sub("", head)]
    candidates = [term]
    for head in heads:
        if len(head) >= TERM_HEAD_MIN_CHARS and head not in candidates and _term_acceptable(head):
            candidates.append(head)
    return tuple(candidates)


def term_context(*, term: str) -> str:
    """Return what follows the term's head, without its articles: "funding fee on an irrrl" → "irrrl", "dro in
    the old appeals system" → "old appeals system"; "" when nothing follows it."""
    found = _TERM_HEAD_RE.match(term)
    return _term_clean(found.group("context")) if found else ""


def definitional_term_extract(*, question: str) -> str | None:
    """Return the term a "what is X" question asks about, lower case and without articles or quotes.

    Return None when the question is not definitional, including "what is <fact about X>" questions.
    """
    text = _question_normalise(question)
    if not text:
        return None
    for pattern in _DEFINITION_RES:
        if found := pattern.match(text):
            return _term_from(found, meaning=pattern in _MEANING_RES)
    # "My tracker shows a QRD flag. What does QRD stand for?": the last sentence asks, the rest says where
    # the term was seen. Only an explicit meaning question counts there: after "I have tinnitus.", "What is
    # the rating?" asks about tinnitus, not about the word "rating".
    sentences = _SENTENCE_END_RE.split(text)
    if len(sentences) > 1:
        last = _TRAILING_PUNCT_RE.sub("", sentences[-1])
        for pattern in _MEANING_RES:
            if found := pattern.match(last):
                return _term_from(found, meaning=True)
    return None


def _term_from(found: re.Match[str], *, meaning: bool) -> str | None:
    term = _term_clean(found.group("term"))
    if meaning:
        term = _TRAILING_KIND_RE.sub("", term)
    return term if _term_acceptable(term) else None


_KEY_DROP_RE = re.compile(r"['\u2019]")
_KEY_SPLIT_RE = re.compile(r"[^a-z0-9]+")
_ARTICLES = frozenset({"a", "an", "the"})


def _singular(word: str) -> str:
    if len(word) <= 3 or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    return word[:-1]


def term_key(term: str) -> str:
    """Return the form two spellings of a term share: "P&T", "p and t" and "P & T" all give "p t".

    "and" is dropped after "&" becomes "and", so the ampersand, the word and the bare letters agree.
    """
    text = _KEY_DROP_RE.sub("", term.translate(_QUOTES).casefold().replace("&", " and "))
    words = [word for word in _KEY_SPLIT_RE.split(text) if word and word != "and"]
    while words and words[0] in _ARTICLES:
        words = words[1:]
    return " ".join(_singular(word) for word in words)


def glossary_index_build(*, glossary: Mapping[str, Sequence[str]]) -> GlossaryIndex:
    by_key: dict[str, dict[str, int]] = {}
    own: dict[str, str] = {}
    spellings: dict[str, set[str]] = {}
    for canonical, aliases in glossary.items():
        # A bare string is a Sequence[str] of characters; take it as one alias.
        alias_list = (aliases,) if isinstance(aliases, str) else tuple(aliases)
        own[canonical] = term_key(canonical)
        spellings[canonical] = {key for key in map(term_key, (canonical, *alias_list)) if key}
        for key in spellings[canonical]:
            rank = 0 if key == own[canonical] else 1
            ranks = by_key.setdefault(key, {})
            ranks[canonical] = min(rank, ranks.get(canonical, rank))
    # Two entries are one concept when one lists the other's name among its spellings ("TDIU" and "Total
    # disability based on individual unemployability (TDIU)"): a key they share is not ambiguous, and the
    # entry naming the other, the fuller one, answers.
    entries = {}
    for key, ranks in by_key.items():
        tied = sorted((rank, canonical) for canonical, rank in ranks.items())
        best = [canonical for rank, canonical in tied if rank == tied[0][0]]
        absorbed = {
            c for c in best for other in best
            if other != c and own[c] in spellings[other]
            and (own[other] not in spellings[c] or (len(other), other) > (len(c), c))
        }
        entries[key] = tuple(entry for entry in tied if entry[1] not in absorbed)
    return GlossaryIndex(by_key=MappingProxyType(entries))


def _suggestions(key: str, index: GlossaryIndex) -> tuple[str, ...]:
    words = set(key.split())
    best: dict[str, float] = {}
    matcher = difflib.SequenceMatcher(None, a=key)
    for candidate, entries in index.by_key.items():
        matcher.set_seq2(candidate)
        # The quick ratios bound ratio() from above: most candidates are ruled out without computing it.
        close = matcher.real_quick_ratio() >= SUGGESTION_MIN_SIMILARITY and \
            matcher.quick_ratio() >= SUGGESTION_MIN_SIMILARITY
        score = matcher.ratio() if close else 0.0
        if words and words < set(candidate.split()):
            score = max(score, SUGGESTION_SUBSET_SIMILARITY)
        if score < SUGGESTION_MIN_SIMILARITY:
            continue
        for _, canonical in entries:
            best[canonical] = max(score, best.get(canonical, 0.0))
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    return tuple(canonical for canonical, _ in ranked[:MAX_SUGGESTIONS])


def _index_match(key: str, index: GlossaryIndex) -> TermMatch:
    if not key:
        return TermMatch(status=STATUS_NOT_FOUND)
    entries = index.by_key.get(key)
    if not entries:
        return TermMatch(status=STATUS_NOT_FOUND, suggestions=_suggestions(key, index))
    # The canonical name outranks an alias; several terms at the best rank are ambiguous.
    best_rank = entries[0][0]
    terms = tuple(canonical for rank, canonical in entries if rank == best_rank)
    if len(terms) == 1:
        return TermMatch(status=STATUS_FOUND, terms=terms)
    return TermMatch(status=STATUS_AMBIGUOUS, terms=terms)


def term_match(*, term: str, glossary: Mapping[str, Sequence[str]]) -> TermMatch:
    """Return the canonical term(s) ``term`` names in ``glossary``, or up to three close ones if none."""
    return _index_match(term_key(term), glossary_index_build(glossary=glossary))


class TtlLruCache(cachetools.TTLCache):
    """cachetools' LRU cache whose entries also expire ``ttl`` seconds after they are written, with a lock so
    request threads can share it (cachetools' own classes are not thread-safe)."""

    def __init__(self, maxsize: int, ttl: float, timer: Callable[[], float] = time.monotonic) -> None:
        if maxsize < 1 or ttl <= 0:
            raise ValueError("maxsize must be at least 1 and ttl positive")
        super().__init__(maxsize=maxsize, ttl=ttl, timer=timer)
        self._lock = threading.RLock()

    def get(self, key: Hashable, default: Any = None) -> Any:
        with self._lock:
            return super().get(key, default)

    def __getitem__(self, key: Hashable) -> Any:
        with self._lock:
            return super().__getitem__(key)

    def __setitem__(self, key: Hashable, value: Any) -> None:
        with self._lock:
            super().__setitem__(key, value)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return super().__contains__(key)

    def __len__(self) -> int:
        with self._lock:
            self.expire()
            return super().__len__()

    def clear(self) -> None:
        with self._lock:
            super().clear()


glossary_cache = TtlLruCache(maxsize=GLOSSARY_CACHE_MAXSIZE, ttl=GLOSSARY_CACHE_TTL_SECONDS)


def term_lookup_cached(
    *,
    term: str,
    glossary_version: Hashable,
    loader: Callable[[], Mapping[str, Sequence[str]]],
    cache: TtlLruCache | None = None,
) -> TermMatch:
    """Return ``term_match`` for ``term`` against the glossary ``loader()`` returns, cached per version.

    ``loader`` runs only when this version's index is not cached (once per version per TTL); bump
    ``glossary_version`` (e.g. the glossary's latest ``updated_at``) so an edit is seen at once.
    """
    cache = glossary_cache if cache is None else cache
    key = term_key(term)
    if not key:
        return TermMatch(status=STATUS_NOT_FOUND)
    match_key = ("match", glossary_version, key)
    cached = cache.get(match_key)
    if cached is not None:
        return cached
    index_key = ("index", glossary_version)
    index = cache.get(index_key)
    if index is None:
        index = glossary_index_build(glossary=loader())
        cache[index_key] = index
    result = _index_match(key, index)
    cache[match_key] = result
    return result


# ---- a definition in a source's own words ----

# How a sentence defines a term: "A nexus letter is a ...", "P&T means ...", "Tinnitus, a ringing in the ears,
# is ...", "... a medical opinion, called a nexus letter, ...". The term may carry an abbreviation in brackets
# or a second name ("TDIU, also called IU, is ..."). "Tinnitus is rated ..." states a fact, not a meaning.
_DEFINES = r"(?:(?:is|are|was)\s+(?:an?|the|one|any|when|what|how)\b|means\b|refers to\b|is called\b|describes\b)"
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def _word_pattern(word: str) -> str:
    return re.escape(word[:-1]) + "'?s" if len(word) > 3 and word.endswith("s") else re.escape(word)


def definition_sentence_find(*, term: str, text: str) -> str | None:
    """Return the first sentence of ``text`` that defines ``term``, or None."""
    # "widows tax" names "the widow's tax": an apostrophe before a final s is optional.
    words = [_word_pattern(word) for word in re.split(r"\W+", term.replace("'", "").replace("\u2019", "")) if word]
    if not words:
        return None
    name = r"\W+".join(words) + r"s?"
    bracket = r"(?:\s*\([^)]{1,60}\))?"
    second_name = r"(?:,\s+(?:also called|also known as|or)\s+[^,.]{1,60},)?"
    defines = re.compile(rf"^(?:(?:an?|the)\s+)?{name}{bracket}{second_name}\s+{_DEFINES}", re.IGNORECASE)
    appositive = re.compile(rf"^(?:(?:an?|the)\s+)?{name}{bracket},\s+(?:an?|the)\s+[^,.]{{3,100}},\s+\w",
                            re.IGNORECASE)
    named = re.compile(rf"\b(?:called|known as)\s+(?:an?\s+|the\s+)?[\"'\u201c]?{name}\b", re.IGNORECASE)
    # "In the legacy process, a Decision Review Officer (DRO) was a ...": the term as a name's abbreviation.
    abbreviation = re.compile(rf"\b(?:an?|the)\s+[A-Z][\w'-]*(?:\s+[\w'-]+){{0,5}}\s+\((?i:{name})\)\s+{_DEFINES}")
    for sentence in _SENTENCE_SPLIT_RE.split(text.strip()):
        if any(pattern.search(sentence) for pattern in (defines, appositive, named, abbreviation)):
            return sentence.strip()
    return None


# A source's definition is its defining sentence and the one after it when both fit in this many characters:
# "often called the widow's tax" says what it was; the next sentence says that it ended.
DEFINITION_MAX_CHARS = 450
_ROW_START_RE = re.compile(r"^\s*(?:[-•*]|\d{1,3}\s?%)")


def definition_passage_find(*, term: str, text: str) -> tuple[str, ...]:
    """Return the sentence of ``text`` that defines ``term`` and the sentence after it when it fits, or ()."""
    sentence = definition_sentence_find(term=term, text=text)
    if sentence is None:
        return ()
    sentences = [s.strip() for s in _SENTENCE_SPLIT_RE.split(text.strip())]
    following = sentences[sentences.index(sentence) + 1:][:1]
    if following and len(sentence) + len(following[0]) < DEFINITION_MAX_CHARS and "\n" not in following[0] \
            and not _ROW_START_RE.match(following[0]) and not following[0].endswith(":"):
        return sentence, following[0]
    return (sentence,)
