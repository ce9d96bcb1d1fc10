"""Reads for the reviewers' workbench: an answer's evidence (each citation's chunk with the sentences the answer
used marked), its verification report and trace in words, feedback, review history, and the dashboard."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db.models import Count, F, Q, Sum
from django.utils import timezone

from knowledge.chunking import units_split
from knowledge.models import AnsweredQuestion
from verification.layers.citations import claims_split, content_words
from verification.layers.cleanup import sentences_split
from verification.layers.confidence import (
    BAND_HIGH,
    BAND_LOW,
    BAND_MEDIUM,
    CONFIDENCE_HIGH_FROM,
    CONFIDENCE_MEDIUM_FROM,
)
from verification.models import LowConfidenceReport
from verification.review import cited_sources

# A chunk sentence is marked as used when it shares this share of the words of a claim citing it (or the claim
# shares it of the sentence's): an extractive answer repeats its source sentences nearly word for word, and a
# generated one keeps most of their meaningful words. Two words at least, so "10%" alone marks nothing.
HIGHLIGHT_OVERLAP = 0.6
HIGHLIGHT_MIN_WORDS = 2
# The list's confidence filter: the bands of verification.layers.confidence, with their limits.
CONFIDENCE_BANDS = (
    (BAND_LOW, f"Low (below {CONFIDENCE_MEDIUM_FROM:.2f})", 0.0, CONFIDENCE_MEDIUM_FROM),
    (BAND_MEDIUM, f"Medium ({CONFIDENCE_MEDIUM_FROM:.2f}–{CONFIDENCE_HIGH_FROM - 0.01:.2f})", CONFIDENCE_MEDIUM_FROM,
     CONFIDENCE_HIGH_FROM),
    (BAND_HIGH, f"High ({CONFIDENCE_HIGH_FROM:.2f} and above)", CONFIDENCE_HIGH_FROM, 1.01),
)
DASHBOARD_DAYS = 7
TOP_GAPS = 10

VERIFICATION_CLEAN = "Every layer passed: nothing was removed or changed."
VERIFICATION_SCORE = "Citation score {score:.0%}: the share of the answer's claims its cited sources support{flag}."
VERIFICATION_SCORE_FLAG = " (below {flag:.0%}, so the answer was sent for review)"
VERIFICATION_NUMBERS = "Numbers no cited source states, removed with their sentences: {values}."
VERIFICATION_CODES = "Codes or forms no cited source states, removed with their sentences: {values}."
VERIFICATION_URLS = "Links outside the whitelist, removed or replaced: {urls}."
VERIFICATION_CITATIONS = "Citation markers naming no source, removed: {markers}."
CONFIDENCE_WHY = (
    "Confidence {confidence:.2f}: the geometric mean of the best retrieval score ({best:.2f}) and the citation "
    "score ({citation:.2f}); the weaker of the two pulls it down."
)
CONFIDENCE_WARNING = "The answer carried the low-confidence warning (best retrieval score below the warning level)."


@dataclass(frozen=True)
class Segment:
    text: str
    used: bool


@dataclass(frozen=True)
class CitationEvidence:
    number: int
    title: str
    url: str
    entry_id: str
    present: bool  # the chunk is still in the knowledge base
    segments: tuple[Segment, ...]
    claims: tuple[str, ...]  # the answer's claims that cite this source

    @property
    def used_count(self) -> int:
        return sum(s.used for s in self.segments)


def claims_by_citation(answer: str) -> dict[int, list[str]]:
    """Return, per citation number, the answer's claims (sentence parts before their markers) that cite it."""
    claims: dict[int, list[str]] = {}
    for sentence in sentences_split(answer):
        for claim, numbers in claims_split(sentence):
            for number in numbers:
                if claim.strip():
                    claims.setdefault(number, []).append(claim.strip())
    return claims


def segments_mark(*, content: str, claims: Sequence[str]) -> tuple[Segment, ...]:
    """Split a chunk into its sentences and table rows, marking those the claims were drawn from."""
    claim_words = [content_words(c) for c in claims]
    segments = []
    for unit in units_split(text=content):
        words = content_words(unit)
        used = any(_overlaps(words, cw) for cw in claim_words)
        segments.append(Segment(text=unit, used=used))
    return tuple(segments)


def _overlaps(a: frozenset[str], b: frozenset[str]) -> bool:
    shared = len(a & b)
    return shared >= HIGHLIGHT_MIN_WORDS and shared / min(len(a), len(b)) >= HIGHLIGHT_OVERLAP


def answer_evidence(*, answered_question: AnsweredQuestion) -> list[CitationEvidence]:
    """Return each citation of an answer with its source and its chunk's text as it is now, used parts marked."""
    claims = claims_by_citation(answered_question.answer)
    evidence = []
    for source in cited_sources(answered_question=answered_question):
        cited = claims.get(source.number, [])
        evidence.append(CitationEvidence(
            number=source.number, title=source.title, url=source.url, entry_id=source.entry_id,
            present=bool(source.content), segments=segments_mark(content=source.content, claims=cited),
            claims=tuple(cited),
        ))
    return evidence


def verification_in_words(*, answered_question: AnsweredQuestion, citation_flag: float) -> list[str]:
    """Return the verification report as sentences a reviewer reads."""
    report = answered_question.verification or {}
    lines = []
    score = report.get("citation_score")
    if score is not None:
        flag = VERIFICATION_SCORE_FLAG.format(flag=citation_flag) if score < citation_flag else ""
        lines.append(VERIFICATION_SCORE.format(score=score, flag=flag))
    for key, template in (("hallucinated_numbers", VERIFICATION_NUMBERS), ("hallucinated_codes", VERIFICATION_CODES)):
        if report.get(key):
            lines.append(template.format(values=", ".join(report[key])))
    if report.get("invalid_urls"):
        lines.append(VERIFICATION_URLS.format(urls=", ".join(report["invalid_urls"])))
    if report.get("removed_citations"):
        lines.append(VERIFICATION_CITATIONS.format(markers=", ".join(report["removed_citations"])))
    if report.get("is_clean", True) and len(lines) <= 1:
        lines.append(VERIFICATION_CLEAN)
    if not answered_question.refused:
        lines.append(CONFIDENCE_WHY.format(confidence=answered_question.confidence,
                                           best=answered_question.retrieval_score,
                                           citation=score if score is not None else 1.0))
    if answered_question.warning:
        lines.append(CONFIDENCE_WARNING)
    return lines


@dataclass(frozen=True)
class TraceRow:
    stage: str
    ms: float
    decision: str
    share: float  # of the traced time, for the bar


def trace_rows(*, trace: Sequence[dict[str, Any]]) -> list[TraceRow]:
    total = sum(float(s.get("ms", 0)) for s in trace) or 1.0
    return [TraceRow(stage=str(s.get("stage", "")), ms=float(s.get("ms", 0)), decision=str(s.get("decision", "")),
                     share=float(s.get("ms", 0)) / total) for s in trace]


def feedback_model():
    """Return the answer feedback model once the chat app has it, else None."""
    try:
        return apps.get_model("chat", "AnswerFeedback")
    except LookupError:
        return None


def feedback_list(*, answered_question: AnsweredQuestion) -> list:
    model = feedback_model()
    if model is None:
        return []
    return list(model.objects.filter(answered_question_id=answered_question.id).order_by("-created_at")[:50])


@dataclass(frozen=True)
class HistoryEntry:
    when: datetime.datetime
    who: str
    change: str
    reason: str


_CHANGE_WORDS = {"+": "stored", "~": "changed", "-": "deleted"}


def review_history(*, answered_question: AnsweredQuestion, limit: int = 50) -> list[HistoryEntry]:
    """Return the answer's history, newest first: who changed what, when and why."""
    records = list(answered_question.history.select_related("history_user").order_by("-history_date")[: limit + 1])
    entries = []
    for newer, older in zip(records, [*records[1:], None], strict=False):
        if len(entries) == limit:
            break
        fields = [c.field for c in newer.diff_against(older).changes] if older is not None else []
        fields = [f for f in fields if f not in ("updated_at", "review_version")]
        change = _CHANGE_WORDS.get(newer.history_type, newer.history_type)
        if fields:
            change = f"{change}: {', '.join(fields)}"
        entries.append(HistoryEntry(when=newer.history_date, who=getattr(newer.history_user, "username", "") or "system",
                                    change=change, reason=newer.history_change_reason or ""))
    return entries


# ---- the queue and the dashboard ----

def review_queue() -> Q:
    """The answers waiting for a reviewer: needing review (stale ones included), neither verified nor flagged."""
    return Q(needs_review=True, verified=False, flagged=False, refused=False, off_record=False)


@dataclass(frozen=True)
class Dashboard:
    queue: int
    stale: int
    verified_this_week: int
    flagged_this_week: int
    corrected_this_week: int
    served: int
    served_verified: int
    open_reports: int
    top_gaps: list[tuple[str, int]] = field(default_factory=list)

    @property
    def verified_share(self) -> float:
        return self.served_verified / self.served if self.served else 0.0


def dashboard_get(*, now: datetime.datetime | None = None) -> Dashboard:
    """Return the reviewer dashboard's figures. Serves are counted as each stored answer's first serve plus its
    cache hits; those from verified entries are the hits made while the entry was verified."""
    since = (now or timezone.now()) - datetime.timedelta(days=DASHBOARD_DAYS)
    on_record = AnsweredQuestion.objects.filter(off_record=False)
    figures = on_record.aggregate(
        queue=Count("id", filter=review_queue()),
        stale=Count("id", filter=Q(stale=True, verified=False, flagged=False)),
        verified_week=Count("id", filter=Q(verified=True, verified_at__gte=since)),
        flagged_week=Count("id", filter=Q(flagged=True, flagged_at__gte=since)),
        corrected_week=Count("id", filter=Q(corrected_at__gte=since)),
        stored=Count("id"),
        hits=Sum("hit_count"),
        verified_hits=Sum("verified_hit_count"),
    )
    reports = LowConfidenceReport.objects.filter(status=LowConfidenceReport.Status.OPEN)
    gaps = list(reports.exclude(topic_gap="").values("topic_gap").annotate(n=Count("id"))
                .order_by("-n", "topic_gap").values_list("topic_gap", "n")[:TOP_GAPS])
    return Dashboard(
        queue=figures["queue"], stale=figures["stale"], verified_this_week=figures["verified_week"],
        flagged_this_week=figures["flagged_week"], corrected_this_week=figures["corrected_week"],
        served=figures["stored"] + (figures["hits"] or 0), served_verified=figures["verified_hits"] or 0,
        open_reports=reports.count(), top_gaps=gaps,
    )


def topic_gaps_list() -> list[dict[str, Any]]:
    """Return the open low-confidence reports grouped by topic gap, biggest first, each with its questions."""
    rows = (LowConfidenceReport.objects.filter(status=LowConfidenceReport.Status.OPEN)
            .annotate(question=F("answered_question__question"))
            .order_by("topic_gap", "-created_at").values("id", "topic_gap", "question", "answered_question_id",
                                                          "best_score", "created_at"))
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row["topic_gap"], []).append(row)
    return sorted(({"gap": gap, "reports": reports} for gap, reports in groups.items()),
                  key=lambda g: (-len(g["reports"]), g["gap"] == "", g["gap"]))
