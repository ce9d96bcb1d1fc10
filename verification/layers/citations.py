"""Layer 4: check that each cited source supports the claim that cites it.

A claim is the text before a run of markers (``... 10% [1][2]``), plus any uncited tail of its sentence.
Each marker is one check: the cited chunk must share enough of the claim's content words, and every fact
(number, code, form, period, date) in the claim must be stated by the chunks cited together. Where the
words differ (a paraphrase), ``similarity(claim, chunk_content)`` — e.g. embedding cosine — may vouch for it.
A sentence that states something but cites nothing is an unsupported claim.

score = supported / total checks; 1.0 for an answer with no claims (empty, or only "the sources don't say"),
0.0 for one with claims and no citations.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

import snowballstemmer

from verification.layers.cleanup import removal_gap, sentences_split, text_tidy
from verification.layers.numbers import facts_find, facts_unsupported
from verification.layers.types import CitationCheck, ClaimCheck, SourceChunk

REASON_WORD_OVERLAP = "word_overlap"
REASON_SIMILARITY = "similarity"
REASON_SOURCE_MISSING = "source_missing"
REASON_VALUE_NOT_IN_SOURCE = "value_not_in_source"
REASON_LOW_OVERLAP = "low_overlap"
REASON_NO_CITATION = "no_citation"

# Share of a claim's content words (stemmed) that the cited chunk must contain. 0.5 lets a claim reword
# half of itself. Measured on ../shared/data/vbkb_corpus.json (3,000 sampled sentences of 4+ content
# words): checked against a random other chunk, 2.2% reach 0.5; against another chunk of the same page,
# 12.6% (0.6: 0.9% and 8.1%); a verbatim sentence scores 1.0 against its own chunk. Where a paraphrase falls
# short, the similarity callback decides. Re-measured by
# tests/verification/layers/test_citations.py::test_overlap_threshold_on_real_corpus.
MIN_WORD_OVERLAP = 0.5
# Failures that mean "the cited source does not say this"; a missing fact is the number layer's to remove.
_UNFOUNDED_REASONS = frozenset({"low_overlap", "source_missing"})
# An uncited sentence is a claim from this many content words (or any fact) on; "I hope this helps." is not.
MIN_CLAIM_WORDS = 3

STOP_WORDS = frozenset(
    ["a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "either", "few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "may", "me", "might", "more", "most", "must", "my", "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "per", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "upon", "us", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "within", "without", "would", "you", "your", "yours", "yourself", "get", "gets", "got", "one", "ones", "also", "either", "whether", "like", "including", "include", "includes"]  # noqa: E501
)
# Words in nearly every chunk of a VA benefits corpus: sharing them shows nothing.
GENERIC_WORDS = frozenset({"va", "veteran", "veterans", "vas", "department", "affairs"})

_MARKER_RUN_RE = re.compile(r"(?:[ \t]*\[\d{1,4}\](?!\())+")
_MARKER_NUMBER_RE = re.compile(r"\d+")
_WORD_RE = re.compile(r"[a-z][a-z']*")
_LINK_RE = re.compile(r"\[([^\]\n]*)\]\([^)\s]+\)|https?://\S+")
# Not claims: referrals, closings, and saying the sources fall short (rule 2 of the grounding prompt).
_NON_CLAIM_RE = re.compile(
    r"^\W*(?:i hope|hope this|please (?:contact|call|reach|ask|verify|check|consult|talk|speak)"
    r"|you (?:can|may|could|should) (?:also )?(?:call|contact|reach|ask|talk|speak|consult)"
    r"|for (?:more|further) (?:information|help|details)|if you have (?:any )?(?:more|other|further) questions"
    r"|(?:the|my|these) (?:provided )?(?:sources?|context|information)\b.*\b(?:do(?:es)? not|don't|doesn't)"
    r"|i (?:could ?n[o']t|can ?n[o']t|do ?n[o']t|did ?n[o']t) (?:find|see|know|say))",
    re.IGNORECASE,
)
# The Snowball (Porter2) English stemmer: "ratings", "rated" and "rating" meet at "rate", and "miss" and
# "missed" at "miss", where stripping suffixes by hand cut "miss" to "mis" and "statement" to "state".
_STEMMER = snowballstemmer.stemmer("english")


# Answers are made of source sentences, so the same sentences and words come back question after question.
@functools.lru_cache(maxsize=65536)
def word_stem(word: str) -> str:
    """Return the Snowball English stem of ``word`` ("denied", "denies", "deny" → "deni"), the same both ways."""
    return _STEMMER.stemWord(word.lower().strip("'").removesuffix("'s"))


@functools.lru_cache(maxsize=16384)
def content_words(text: str) -> frozenset[str]:
    """Return the stemmed words of ``text`` that carry meaning (no stop words, no generic VA words)."""
    words = (word.removesuffix("'s").strip("'") for word in _WORD_RE.findall(_LINK_RE.sub(r"\1", text).lower()))
    return frozenset(
        word_stem(word) for word in words if len(word) > 1 and word not in STOP_WORDS and word not in GENERIC_WORDS
    )


def _is_claim(sentence: str) -> bool:
    text = sentence.strip()
    if not text or text.endswith(("?", ":")) or _NON_CLAIM_RE.match(text):
        return False
    return len(content_words(text)) >= MIN_CLAIM_WORDS or bool(facts_find(text))


def claims_split(sentence: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Split a sentence into (claim text, cited numbers); an uncited tail joins the last claim."""
    claims: list[tuple[str, tuple[int, ...]]] = []
    start = 0
    for run in _MARKER_RUN_RE.finditer(sentence):
        numbers = tuple(dict.fromkeys(int(number) for number in _MARKER_NUMBER_RE.findall(run.group())))
        claims.append((sentence[start : run.start()], numbers))
        start = run.end()
    tail = sentence[start:]
    if not claims:
        return ((sentence.strip(), ()),) if sentence.strip() else ()
    if content_words(tail) or facts_find(tail):
        text, numbers = claims[-1]
        claims[-1] = (text + tail, numbers)
    return tuple((text.strip(), numbers) for text, numbers in claims)


# Keyed by the text, not the SourceChunk: the same chunk comes back with another score for every question.
@functools.lru_cache(maxsize=4096)
def source_words(title: str, content: str) -> frozenset[str]:
    return content_words(f"{title}\n{content}")


def _overlap(claim_words: frozenset[str], chunk: SourceChunk) -> float:
    if not claim_words:
        return 1.0
    return len(claim_words & source_words(chunk.title, chunk.content)) / len(claim_words)


def _claim_checks(
    claim: str,
    cited: tuple[int, ...],
    *,
    chunks: Sequence[SourceChunk],
    chunks_by_number: dict[int, SourceChunk],
    similarity: Callable[[str, str], float] | None,
    min_similarity: float,
) -> list[ClaimCheck]:
    present = [chunks_by_number[number] for number in cited if number in chunks_by_number]
    missing_values = tuple(fact.value for fact in facts_unsupported(text=claim, sources=present, context=chunks))
    claim_words = content_words(claim)
    checks: list[ClaimCheck] = []
    for number in cited:
        chunk = chunks_by_number.get(number)
        if chunk is None:
            checks.append(ClaimCheck(claim, number, False, REASON_SOURCE_MISSING))
        elif missing_values:
            checks.append(ClaimCheck(claim, number, False, REASON_VALUE_NOT_IN_SOURCE, missing_values))
        elif _overlap(claim_words, chunk) >= MIN_WORD_OVERLAP:
            checks.append(ClaimCheck(claim, number, True, REASON_WORD_OVERLAP))
        elif similarity is not None and similarity(claim, chunk.content) >= min_similarity:
            checks.append(ClaimCheck(claim, number, True, REASON_SIMILARITY))
        else:
            checks.append(ClaimCheck(claim, number, False, REASON_LOW_OVERLAP))
    return checks


def _supported_anywhere(
    claim: str,
    *,
    chunks: Sequence[SourceChunk],
    similarity: Callable[[str, str], float] | None,
    min_similarity: float,
) -> bool:
    claim_words = content_words(claim)
    return any(
        _overlap(claim_words, chunk) >= MIN_WORD_OVERLAP
        or (similarity is not None and similarity(claim, chunk.content) >= min_similarity)
        for chunk in chunks
    )


def citations_verify(
    *,
    answer: str,
    chunks: Sequence[SourceChunk],
    similarity: Callable[[str, str], float] | None = None,
    flag_below: float = 0.7,
    min_similarity: float = 0.6,
) -> CitationCheck:
    """Check every claim against the chunks it cites; flag the answer when the score is below ``flag_below``.

    ``text`` is the answer without the sentences nothing supports: every cited claim in them failed for want
    of support (words or missing source), or, uncited, no chunk in the context supports them either (this is
    where instructions injected into the answer go). Sentences whose only fault is a fact their sources lack
    stay for the number layer (L5), which removes and reports them. ``refuse`` is set when sentences were
    removed and no cited claim is left.

    ``flag_below`` 0.7 is the seed whitepaper's citation-score flag. ``min_similarity`` 0.6 is a default, not
    yet measured: callers pass the value calibrated for their embedding provider's sentence-to-chunk cosine.
    """
    chunks_by_number = {chunk.number: chunk for chunk in chunks}
    checks: list[ClaimCheck] = []
    kept: list[str] = []
    removed: list[str] = []
    cited_claims_left = False
    for sentence in sentences_split(answer):
        sentence_checks: list[ClaimCheck] = []
        unsupported_uncited = False
        for claim, cited in claims_split(sentence):
            if cited:
                sentence_checks += _claim_checks(
                    claim,
                    cited,
                    chunks=chunks,
                    chunks_by_number=chunks_by_number,
                    similarity=similarity,
                    min_similarity=min_similarity,
                )
            elif _is_claim(claim):
                sentence_checks.append(ClaimCheck(claim, None, False, REASON_NO_CITATION))
                unsupported_uncited = not _supported_anywhere(
                    claim, chunks=chunks, similarity=similarity, min_similarity=min_similarity
                )
        checks += sentence_checks
        cited_checks = [check for check in sentence_checks if check.citation is not None]
        unfounded = unsupported_uncited or (
            bool(cited_checks)
            and all(check.reason in _UNFOUNDED_REASONS for check in cited_checks)
        )
        if unfounded:
            removed.append(sentence.strip())
            kept.append(removal_gap(before="".join(kept), sentence=sentence))
            continue
        kept.append(sentence)
        cited_claims_left = cited_claims_left or bool(cited_checks)
    supported = sum(check.supported for check in checks)
    score = supported / len(checks) if checks else 1.0
    missing = tuple(
        dict.fromkeys(check.citation for check in checks if check.reason == REASON_SOURCE_MISSING and check.citation)
    )
    return CitationCheck(
        score=score,
        total=len(checks),
        supported=supported,
        claims=tuple(checks),
        flagged=score < flag_below,
        missing_sources=missing,
        text=text_tidy("".join(kept)) if removed else answer,
        removed_sentences=tuple(removed),
        refuse=bool(removed) and not cited_claims_left,
    )
