"""Frozen dataclasses the layers take and return.

A result that feeds the API's ``verification`` object has a ``to_dict()`` returning exactly its keys of that
object (see docs/ARCHITECTURE.md, "Contracts"); the full detail stays on the dataclass for the trace and the admin.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any


@dataclass(frozen=True, slots=True)
class SourceChunk:
    """One retrieved chunk as the layers see it; ``number`` is its 1-based citation number ``[n]``."""

    number: int
    chunk_id: int
    entry_id: str
    title: str
    url: str
    content: str
    score: float
    topic: str = ""
    diagnostic_code: str = ""
    lexical_rank: int = 0  # its rank among full-text hits, 0 when full-text search did not find it
    entity_rank: int = 0  # its rank among the chunks linked to a code or form the question names, 0 when none
    benefits: frozenset[str] = frozenset()  # the benefits the graph links it to ("vre", "dic")
    checked_on: date | None = None  # the day its facts were checked against its official page


@dataclass(frozen=True, slots=True)
class RelevanceResult:
    kept: tuple[SourceChunk, ...]
    best_score: float
    weak_retrieval: bool
    refuse: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "kept": [chunk.chunk_id for chunk in self.kept],
            "best_score": self.best_score,
            "weak_retrieval": self.weak_retrieval,
            "refuse": self.refuse,
        }


@dataclass(frozen=True, slots=True)
class Refusal:
    reason: str
    message: str
    suggestions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"refusal_reason": self.reason, "message": self.message, "suggestions": list(self.suggestions)}


@dataclass(frozen=True, slots=True)
class GroundingPrompt:
    system: str
    user: str

    def to_messages(self) -> list[dict[str, str]]:
        """Return the prompt as OpenAI-style chat messages."""
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]


@dataclass(frozen=True, slots=True)
class UrlCheck:
    text: str
    invalid_urls: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"invalid_urls": list(self.invalid_urls)}


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """One claim checked against one cited source (``citation`` is None for a claim with no citation).

    ``sentence`` is the claim's text: the part of its sentence before its markers, without them.
    """

    sentence: str
    citation: int | None
    supported: bool
    reason: str
    missing_values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CitationCheck:
    """Beyond the score: ``text`` is the answer less the sentences nothing supports, ``removed_sentences``
    those sentences, and ``refuse`` whether no cited claim is left (see ``citations_verify``)."""

    score: float
    total: int
    supported: int
    claims: tuple[ClaimCheck, ...] = ()
    flagged: bool = False
    missing_sources: tuple[int, ...] = ()
    text: str = ""
    removed_sentences: tuple[str, ...] = ()
    refuse: bool = False

    @property
    def unsupported_claims(self) -> tuple[ClaimCheck, ...]:
        return tuple(claim for claim in self.claims if not claim.supported)

    def to_dict(self) -> dict[str, Any]:
        return {"citation_score": round(self.score, 3)}


@dataclass(frozen=True, slots=True)
class NumberCheck:
    text: str
    hallucinated_numbers: tuple[str, ...] = ()
    hallucinated_codes: tuple[str, ...] = ()
    removed_sentences: tuple[str, ...] = ()
    refuse: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "hallucinated_numbers": list(self.hallucinated_numbers),
            "hallucinated_codes": list(self.hallucinated_codes),
        }


@dataclass(frozen=True, slots=True)
class CitationCleanup:
    text: str
    removed_citations: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"removed_citations": list(self.removed_citations)}


@dataclass(frozen=True, slots=True)
class ConfidenceAssessment:
    warning: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"warning": self.warning}


def verification_dict_build(
    *, urls: UrlCheck, citations: CitationCheck, numbers: NumberCheck, cleanup: CitationCleanup
) -> dict[str, Any]:
    """Return the API's ``verification`` object; clean means no layer changed or flagged anything."""
    verification = {**citations.to_dict(), **urls.to_dict(), **numbers.to_dict(), **cleanup.to_dict()}
    verification["is_clean"] = not (
        citations.flagged
        or urls.invalid_urls
        or numbers.hallucinated_numbers
        or numbers.hallucinated_codes
        or cleanup.removed_citations
    )
    return verification
