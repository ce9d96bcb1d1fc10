"""The immutable values the answer pipeline passes from step to step, and the answer it returns."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np

from verification.generators import Generation
from verification.layers.types import CitationCheck, CitationCleanup, NumberCheck, SourceChunk, UrlCheck
from verification.routing import Route
from verification.scope import ScopeDecision


@dataclass(frozen=True)
class AnswerResult:
    id: int | None
    question: str
    answer: str
    citations: list[dict[str, Any]]
    confidence: float
    weak_retrieval: bool
    refused: bool
    refusal_reason: str | None
    warning: str | None
    suggestions: list[str]
    cache: str
    model: str
    routing_reason: str
    topics: list[str]
    entities: list[dict[str, str]]
    verification: dict[str, Any]
    verified: bool
    flagged: bool
    request_id: str
    trace: list[dict[str, Any]]
    latency_ms: float
    rewritten_question: str | None = None  # the follow-up as answered, rewritten from the conversation
    sources_checked_on: date | None = None  # the oldest cited chunk's checked_on; None when nothing is cited


@dataclass(frozen=True)
class Draft:
    """A generated answer on its way through the layers; each layer's result is kept for the verification
    object. ``rejected`` when a layer left nothing supported."""

    generation: Generation
    text: str
    cleanup: CitationCleanup | None = None
    urls: UrlCheck | None = None
    citations: CitationCheck | None = None
    numbers: NumberCheck | None = None
    used: tuple[tuple[int, int], ...] = ()  # (number given to the generator, number in the answer)
    rejected: bool = False


@dataclass(frozen=True)
class Reply:
    """The answer chosen for the question, before it is stored."""

    answer: str
    model: str
    routing_reason: str
    verification: Mapping[str, Any]
    citations: tuple[Mapping[str, Any], ...] = ()
    cited: tuple[tuple[int, int, int], ...] = ()  # (chunk id, source id, citation number)
    confidence: float = 0.0
    refused: bool = False
    refusal_reason: str = ""
    suggestions: tuple[str, ...] = ()
    warning: str | None = None
    report: bool = False  # write a low-confidence report for reviewers
    degraded: bool = False  # made by a fallback (an outside service failed): not served from the cache
    dated: bool = False  # worked out against today's date ("95 days from today"): not served from the cache


@dataclass(frozen=True)
class AnswerState:
    """Everything known about one question so far. Steps return a changed copy (`replace` below)."""

    # The request.
    asked: str  # the question as asked; personal data removed once scrub_pii has run
    request_id: str
    use_cache: bool = True
    topic: str | None = None
    source: str | None = None
    history: tuple[str, ...] = ()  # the conversation's earlier questions, oldest first
    started: float = field(default_factory=time.perf_counter)
    # The question answered: as asked, or rewritten from the conversation.
    text: str = ""
    rewritten: str | None = None
    normalised: str = ""
    digest: str = ""  # the exact cache's key
    notice: str | None = None
    # What the question is about.
    glossary: Mapping[str, tuple[str, ...]] | None = None
    topics: tuple[str, ...] = ()
    topic_scores: tuple[tuple[str, float], ...] = ()
    entities: tuple[tuple[str, str], ...] = ()  # (type, value)
    scope: ScopeDecision | None = None
    gate_key: str = ""
    entity_ids: Mapping[tuple[str, str], int] | None = None
    # The question's vector and the thresholds of the provider that made it.
    vector: np.ndarray | None = None
    model_name: str = ""
    provider_name: str | None = None  # the embedding provider answering, when not the configured one
    offline_reason: str = ""  # set when an outside service failed and the offline path answers
    limits: Mapping[str, float] | None = None
    # Retrieval.
    chunks: tuple[SourceChunk, ...] = ()
    chunk_types: Mapping[int, str] | None = None
    rare_words: tuple[str, ...] = ()  # the question's words the corpus holds only a few times (retrieve)
    story_codes: frozenset[str] = frozenset()  # codes of conditions a decision review tells as its story (embed)
    chunk_sources: Mapping[int, int] | None = None
    retrieved: tuple[Mapping[str, Any], ...] = ()
    best_score: float = 0.0
    weak: bool = False
    # Generation.
    route: Route | None = None
    draft: Draft | None = None
    # The outcome: a reply to store, or the finished result (a cache hit, or the stored reply).
    reply: Reply | None = None
    result: AnswerResult | None = None
    # The runner's bookkeeping: the last step's decision, and the trace so far.
    decision: str | None = None
    trace: tuple[Mapping[str, Any], ...] = ()

    @property
    def restriction(self) -> str:
        """The topic or source retrieval and the caches are kept to, as part of the caches' keys."""
        parts = [f"topic={self.topic}"] if self.topic else []
        return ";".join(parts + ([f"source={self.source}"] if self.source else []))

    def entity_values(self, *types: str) -> list[str]:
        return [value for kind, value in self.entities if kind in types]

    def entity_dicts(self) -> list[dict[str, str]]:
        return [{"type": kind, "value": value} for kind, value in self.entities]


_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(AnswerState))


def replace(obj: Any, /, **changes: Any) -> Any:
    """``dataclasses.replace``, made cheap for ``AnswerState``: a run copies the state some forty times, and
    the generated ``__init__`` over its forty fields cost about 0.7 ms of a 17 ms answer. The state has no
    ``__post_init__`` to skip; an unknown field still raises ``TypeError``."""
    if type(obj) is not AnswerState:
        return dataclasses.replace(obj, **changes)
    if unknown := changes.keys() - _STATE_FIELDS:
        raise TypeError(f"AnswerState has no field {sorted(unknown)[0]!r}")
    copy = object.__new__(AnswerState)
    copy.__dict__.update(obj.__dict__)
    copy.__dict__.update(changes)
    return copy

