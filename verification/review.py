"""The reviewer workflow: decisions on answers (verify, flag, clear a flag, send back to the queue, correct),
low-confidence reports, and what the cache serves for a reviewed answer.

Every decision runs in a transaction on the answer's row, locked, and records who, when and why in the row's
history (django-simple-history). A decision names the version of the answer it was made on: when another
reviewer decided in between, it is refused with ``ReviewConflict`` instead of silently overwriting theirs.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from knowledge.models import AnsweredQuestion, Chunk
from verification.layers.citations import citations_verify
from verification.layers.cleanup import citations_cleanup, citations_used
from verification.layers.numbers import numbers_verify
from verification.layers.refusal import REASON_UNDER_REVIEW, VA_BENEFITS_PHONE
from verification.layers.types import SourceChunk, verification_dict_build
from verification.layers.url_whitelist import urls_enforce
from verification.models import LowConfidenceDigest, LowConfidenceReport

logger = logging.getLogger("verification.review")

REFUSAL_UNDER_REVIEW = REASON_UNDER_REVIEW
UNDER_REVIEW_MESSAGE = (
    "A reviewer is checking our answer to this question, so we are not showing it until it has been "
    f"corrected. For help now, call VA at {VA_BENEFITS_PHONE}, or ask an accredited Veterans Service "
    "Organization (VSO) representative, who can help you for free."
)

ERR_REASON_REQUIRED = "Say why: a reason is required to {action} an answer."
ERR_CONFLICT = (
    "Another reviewer changed this answer while you were reading it ({who}, {when}: {state}). "
    "Your decision was not saved; read the answer again and decide."
)
ERR_NOT_FLAGGED = "This answer is not flagged."
ERR_REFUSAL = "A refusal is not served from the cache; there is nothing to verify or correct."
ERR_CORRECTION_EMPTY = "The corrected answer is empty."
ERR_CORRECTION_NO_CITATION = "Cite at least one source as [n]: the sources are numbered 1 to {count}."
ERR_CORRECTION_OUT_OF_RANGE = "Citation {markers} is out of range: this answer has sources 1 to {count}."
ERR_CORRECTION_URLS = "Links outside the whitelist: {urls}."
ERR_CORRECTION_UNSUPPORTED = "Not supported by the sources it cites: “{sentences}”."
ERR_CORRECTION_NUMBERS = "Numbers or codes no cited source states: {values}."
ERR_CORRECTION_CITATION_SCORE = (
    "Only {score:.0%} of the claims are supported by the sources they cite (at least {flag:.0%} needed)."
)
ERR_SOURCE_REMOVED = "Source [{number}] ({entry_id}) was removed from the knowledge base."

REASON_VERIFIED_REPORT = "Resolved by verifying the answer."
REASON_REPLACED = "replaced in the cache by answer {id}, verified"


class ReviewError(ValueError):
    """A decision that cannot be made as asked; ``message`` says why, for the reviewer."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ReviewConflict(ReviewError):
    pass


class CorrectionRefused(ReviewError):
    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = tuple(problems)


# ---- what the cache serves ----

@dataclass(frozen=True)
class CachedContent:
    answer: str
    citations: list[dict[str, Any]]
    refused: bool
    refusal_reason: str | None
    warning: str | None
    suggestions: list[str] = field(default_factory=list)


def cached_answer_content(*, row: AnsweredQuestion, under_review: bool) -> CachedContent:
    """Return what the cache serves for a stored answer: the answer itself, or, when a reviewer flagged it and
    no corrected answer exists, the message that it is being reviewed (its text is never shown again)."""
    if under_review or row.flagged:
        return CachedContent(answer=UNDER_REVIEW_MESSAGE, citations=[], refused=True,
                             refusal_reason=REFUSAL_UNDER_REVIEW, warning=None)
    return CachedContent(answer=row.answer, citations=row.citations, refused=row.refused,
                         refusal_reason=row.refusal_reason or None, warning=row.warning or None,
                         suggestions=row.suggestions)


# ---- decisions ----

_DECISION_FIELDS = ["verified", "verified_by", "verified_at", "flagged", "flagged_by", "flagged_at", "needs_review",
                    "review_note", "review_version", "updated_at"]


def _locked(answered_question: AnsweredQuestion, expected_version: int | None) -> AnsweredQuestion:
    row = (AnsweredQuestion.objects.select_for_update().defer("question_embedding", "answer_embedding")
           .get(id=answered_question.id))
    if expected_version is not None and row.review_version != expected_version:
        raise ReviewConflict(_conflict_message(row))
    return row


def _conflict_message(row: AnsweredQuestion) -> str:
    last = row.history.order_by("-history_date").select_related("history_user").first()
    who = getattr(last.history_user, "username", "someone") if last else "someone"
    when = timezone.localtime(last.history_date).strftime("%Y-%m-%d %H:%M") if last else "just now"
    return ERR_CONFLICT.format(who=who, when=when, state=review_state_label(row))


def _save(row: AnsweredQuestion, *, user, reason: str, fields: Sequence[str] = ()) -> AnsweredQuestion:
    row.review_version += 1
    row._history_user = user
    row._change_reason = reason[:100]
    row.save(update_fields=list(dict.fromkeys([*_DECISION_FIELDS, *fields])))
    return row


def _require(reason: str, action: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ReviewError(ERR_REASON_REQUIRED.format(action=action))
    return reason


def answer_verify(*, answered_question: AnsweredQuestion, user, note: str = "",
                  expected_version: int | None = None) -> AnsweredQuestion:
    """Verify an answer: out of the queue, its low-confidence report resolved, its warning no longer served,
    and served first (×1.5) for its question and the questions the gate treats as the same.

    A stale answer (a source it cites changed) is checked again against its sources as they are now.
    """
    with transaction.atomic():
        row = _locked(answered_question, expected_version)
        if row.refused:
            raise ReviewError(ERR_REFUSAL)
        if row.stale:
            check = correction_check(answered_question=row, text=_without_warning(row))
            if check.problems:
                raise CorrectionRefused(check.problems)
        _verified(row, user=user, note=note)
        return _save(row, user=user, reason=f"verified: {note}" if note else "verified",
                     fields=["answer", "warning", "stale", "current"])


def _verified(row: AnsweredQuestion, *, user, note: str) -> None:
    now = timezone.now()
    row.answer, row.warning = _without_warning(row), ""
    row.verified, row.verified_by, row.verified_at = True, user, now
    row.flagged, row.flagged_by, row.flagged_at = False, None, None
    row.needs_review, row.review_note = False, note
    if not row.current and not row.off_record:
        _make_current(row)
    _report_resolve(answered_question_id=row.id, user=user, note=note or REASON_VERIFIED_REPORT)


def _without_warning(row: AnsweredQuestion) -> str:
    """The answer without its low-confidence warning: a reviewer vouches for it now."""
    if row.warning and row.answer.startswith(row.warning):
        return row.answer[len(row.warning):].lstrip()
    return row.answer


def _make_current(row: AnsweredQuestion) -> None:
    """Put a verified answer back in the cache, in place of the unverified one its question has now."""
    other = (AnsweredQuestion.objects.select_for_update().filter(question_hash=row.question_hash, current=True,
                                                                 refused=False).exclude(id=row.id).first())
    if other is not None and other.verified:
        return  # a verified answer holds the question already: the reviewer chose that one
    if other is not None:
        other.current = False
        other._change_reason = REASON_REPLACED.format(id=row.id)
        other.save(update_fields=["current", "updated_at"])
    row.stale, row.current = False, True


def answer_flag(*, answered_question: AnsweredQuestion, user, reason: str,
                expected_version: int | None = None) -> AnsweredQuestion:
    """Flag an answer as wrong: its text is never served again, nor made again for its question (or one the
    gate treats as the same); the veteran gets the corrected answer once there is one, until then the
    message that it is being reviewed."""
    reason = _require(reason, "flag")
    with transaction.atomic():
        row = _locked(answered_question, expected_version)
        now = timezone.now()
        row.verified, row.verified_by, row.verified_at = False, None, None
        row.flagged, row.flagged_by, row.flagged_at = True, user, now
        row.review_note = reason
        return _save(row, user=user, reason=f"flagged: {reason}")


def answer_flag_clear(*, answered_question: AnsweredQuestion, user, reason: str,
                      expected_version: int | None = None) -> AnsweredQuestion:
    """Clear a flag set in error: the answer is served again as it was before (still unverified)."""
    reason = _require(reason, "clear the flag of")
    with transaction.atomic():
        row = _locked(answered_question, expected_version)
        if not row.flagged:
            raise ReviewError(ERR_NOT_FLAGGED)
        row.flagged, row.flagged_by, row.flagged_at = False, None, None
        row.review_note = reason
        return _save(row, user=user, reason=f"flag cleared: {reason}")


def answer_requeue(*, answered_question: AnsweredQuestion, user, reason: str,
                   expected_version: int | None = None) -> AnsweredQuestion:
    """Send an answer back to the reviewers' queue: unverified, unflagged, needing review."""
    reason = _require(reason, "send back")
    with transaction.atomic():
        row = _locked(answered_question, expected_version)
        row.verified, row.verified_by, row.verified_at = False, None, None
        row.flagged, row.flagged_by, row.flagged_at = False, None, None
        row.needs_review, row.review_note = True, reason
        return _save(row, user=user, reason=f"sent back to the queue: {reason}")


def answer_correct(*, answered_question: AnsweredQuestion, user, text: str, reason: str = "",
                   expected_version: int | None = None) -> AnsweredQuestion:
    """Replace an answer's text with a reviewer's correction, once layers 6, 3, 4 and 5 pass it against the
    sources it cites (as they are now); the corrected answer is verified and is what the cache serves for
    its question from then on. A correction that fails a layer raises ``CorrectionRefused`` with the reasons.
    """
    with transaction.atomic():
        row = _locked(answered_question, expected_version)
        if row.refused:
            raise ReviewError(ERR_REFUSAL)
        check = correction_check(answered_question=row, text=text)
        if check.problems:
            raise CorrectionRefused(check.problems)
        row.answer, row.warning = check.text, ""
        row.citations, row.verification = check.citations, check.verification
        row.corrected_by, row.corrected_at = user, timezone.now()
        _verified(row, user=user, note=reason)
        return _save(row, user=user, reason=f"corrected: {reason}" if reason else "corrected",
                     fields=["answer", "warning", "citations", "verification", "corrected_by", "corrected_at",
                             "stale", "current"])


@dataclass(frozen=True)
class CorrectionCheck:
    text: str
    citations: list[dict[str, Any]]
    verification: dict[str, Any]
    problems: tuple[str, ...] = ()


def cited_sources(*, answered_question: AnsweredQuestion) -> list[SourceChunk]:
    """Return the sources an answer cites, numbered as its citations, with their chunks' text as it is now."""
    entry_ids = [c.get("chunk_id", "") for c in answered_question.citations]
    chunks = {c.entry_id: c for c in Chunk.objects.filter(entry_id__in=entry_ids).select_related("source", "topic")}
    sources = []
    for citation in answered_question.citations:
        chunk = chunks.get(citation.get("chunk_id", ""))
        sources.append(SourceChunk(
            number=int(citation["number"]), chunk_id=chunk.id if chunk else 0, entry_id=citation.get("chunk_id", ""),
            title=chunk.title if chunk else citation.get("title", ""),
            url=chunk.source.url if chunk else citation.get("url", ""), content=chunk.content if chunk else "",
            score=1.0, topic=chunk.topic.slug if chunk else "", diagnostic_code=chunk.diagnostic_code if chunk else "",
        ))
    return sources


def correction_check(*, answered_question: AnsweredQuestion, text: str) -> CorrectionCheck:
    """Run an edited answer through L6 (citation markers), L3 (URL whitelist), L4 (citations) and L5 (numbers
    and codes) against the sources the answer cites; return the problems, none when it may be served."""
    # Imported here: the pipeline imports this module for ``cached_answer_content``.
    from verification.pipeline.generation import whitelist
    from verification.pipeline.retrieval import thresholds

    text = (text or "").strip()
    sources = cited_sources(answered_question=answered_question)
    count = len(sources)
    if not text:
        return CorrectionCheck(text="", citations=[], verification={}, problems=(ERR_CORRECTION_EMPTY,))
    problems: list[str] = []
    cleanup = citations_cleanup(answer=text, source_count=count)
    if cleanup.removed_citations:
        problems.append(ERR_CORRECTION_OUT_OF_RANGE.format(markers=", ".join(cleanup.removed_citations), count=count))
    used = citations_used(cleanup.text)
    if not used:
        problems.append(ERR_CORRECTION_NO_CITATION.format(count=count))
    problems += [ERR_SOURCE_REMOVED.format(number=s.number, entry_id=s.entry_id)
                 for s in sources if s.number in used and not s.content]
    urls = urls_enforce(answer=cleanup.text, whitelisted_domains=whitelist(), chunks=sources)
    if urls.invalid_urls:
        problems.append(ERR_CORRECTION_URLS.format(urls=", ".join(urls.invalid_urls)))
    flag_below = thresholds()["citation_flag"]
    citations = citations_verify(answer=cleanup.text, chunks=sources, flag_below=flag_below)
    if citations.removed_sentences:
        problems.append(ERR_CORRECTION_UNSUPPORTED.format(sentences="”, “".join(citations.removed_sentences)))
    elif citations.flagged:
        problems.append(ERR_CORRECTION_CITATION_SCORE.format(score=citations.score, flag=flag_below))
    numbers = numbers_verify(answer=cleanup.text, chunks=sources)
    values = [*numbers.hallucinated_numbers, *numbers.hallucinated_codes]
    if values:
        problems.append(ERR_CORRECTION_NUMBERS.format(values=", ".join(values)))
    kept = [c for c in answered_question.citations if int(c["number"]) in used]
    verification = verification_dict_build(urls=urls, citations=citations, numbers=numbers, cleanup=cleanup)
    return CorrectionCheck(text=cleanup.text, citations=kept, verification=verification, problems=tuple(problems))


def review_state_label(row: AnsweredQuestion) -> str:
    """Return the answer's review state in words, as the admin lists it."""
    if row.refused:
        return "Refused"
    if row.flagged:
        return "Flagged"
    if row.stale:
        return "Stale"
    if row.verified:
        return "Corrected" if row.corrected_at else "Verified"
    if row.off_record:
        return "Off the record"
    if row.needs_review:
        return "In the queue"
    return "Served, unreviewed" if row.current else "Out of the cache"


# ---- scheduled re-checks of answers whose sources changed ----

RECHECK_BATCH = 200
NO_GAP = "(no topic gap)"


def _sources_hash(sources: Sequence[SourceChunk]) -> str:
    digest = hashlib.sha256()
    for s in sources:
        digest.update(f"{s.number}\0{s.entry_id}\0{s.content}\0".encode())
    return digest.hexdigest()


def stale_answers_recheck(*, limit: int = RECHECK_BATCH) -> int:
    """Check stale answers (a source they cite changed) again against their sources as they are now, and keep
    the result in ``verification["recheck"]`` for the reviewer: still supported, or the problems found.

    The answers stay out of the cache; a reviewer decides. An answer already checked against the same source
    texts is skipped, so running it again does nothing new. Return how many answers were checked."""
    rows = (AnsweredQuestion.objects.filter(stale=True, refused=False, flagged=False)
            .defer("question_embedding", "answer_embedding", "trace", "retrieved").order_by("id"))
    checked = 0
    for row in rows.iterator(chunk_size=100):
        sources = cited_sources(answered_question=row)
        fingerprint = _sources_hash(sources)
        if (row.verification or {}).get("recheck", {}).get("sources") == fingerprint:
            continue
        check = correction_check(answered_question=row, text=_without_warning(row))
        recheck = {"sources": fingerprint, "checked_at": timezone.now().isoformat(), "problems": list(check.problems)}
        # An update, not a save: the row's review history records people's decisions, not this job's notes.
        AnsweredQuestion.objects.filter(id=row.id).update(verification={**(row.verification or {}), "recheck": recheck})
        checked += 1
        if checked >= limit:
            break
    return checked


# ---- the daily low-confidence digest ----

DIGEST_EXAMPLES = 5


def low_confidence_digest_create(*, day: date) -> LowConfidenceDigest:
    """Group the low-confidence reports made on ``day`` (UTC) by topic gap, largest group first, and store
    them as that day's digest (written again, not duplicated, when run twice)."""
    start = datetime.combine(day, time.min, tzinfo=UTC)
    reports = (LowConfidenceReport.objects.filter(created_at__gte=start, created_at__lt=start + timedelta(days=1))
               .select_related("answered_question").order_by("best_score"))
    groups: dict[str, dict[str, Any]] = {}
    for report in reports:
        group = groups.setdefault(report.topic_gap or NO_GAP, {"topic_gap": report.topic_gap or NO_GAP, "count": 0,
                                                             "open": 0, "score_sum": 0.0, "examples": []})
        group["count"] += 1
        group["open"] += report.status == LowConfidenceReport.Status.OPEN
        group["score_sum"] += report.best_score
        if len(group["examples"]) < DIGEST_EXAMPLES:
            group["examples"].append({"report_id": report.id, "answered_question_id": report.answered_question_id,
                                      "question": report.answered_question.question[:200],
                                      "best_score": round(report.best_score, 3)})
    ordered = [{**{k: v for k, v in g.items() if k != "score_sum"}, "mean_best_score": round(g["score_sum"] / g["count"], 3)}
               for g in sorted(groups.values(), key=lambda g: (-g["count"], g["topic_gap"]))]
    digest, _ = LowConfidenceDigest.objects.update_or_create(
        day=day, defaults={"report_count": sum(g["count"] for g in ordered),
                           "open_count": sum(g["open"] for g in ordered), "groups": ordered},
    )
    return digest


# ---- low-confidence reports ----

def low_confidence_report_create(*, answered_question_id: int) -> LowConfidenceReport:
    """Write the low-confidence report for a stored answer (run by a Celery task) and log it as JSON."""
    from verification.layers.confidence import low_confidence_report_build

    row = AnsweredQuestion.objects.defer("question_embedding", "answer_embedding").get(id=answered_question_id)
    # The chunks as they are now: a chunk re-ingested since the answer keeps its entry_id; a deleted one
    # reports its stored title and no content.
    found = {
        c["entry_id"]: c
        for c in Chunk.objects.filter(entry_id__in=[r["entry_id"] for r in row.retrieved])
        .values("entry_id", "id", "content", "source__url", "topic__slug")
    }
    sources = []
    for n, r in enumerate(row.retrieved, start=1):
        now = found.get(r["entry_id"], {})
        sources.append(SourceChunk(number=n, chunk_id=now.get("id", 0), entry_id=r["entry_id"], title=r.get("title", ""),
                                   url=now.get("source__url", ""), content=now.get("content", ""), score=r["score"],
                                   topic=now.get("topic__slug", "")))
    report = low_confidence_report_build(
        question=row.question, chunks=sources, topics=list(row.topics.values_list("slug", flat=True)),
        verification=row.verification, best_score=row.retrieval_score,
        entities=[{"type": t, "value": v} for t, v in row.entities.values_list("type", "value")],
    )
    # An answer a reviewer verified before this task ran needs no report left open.
    resolved = {"status": LowConfidenceReport.Status.RESOLVED, "resolved_at": row.verified_at,
                "resolved_by": row.verified_by, "resolution_note": REASON_VERIFIED_REPORT} if row.verified else {}
    obj, _ = LowConfidenceReport.objects.update_or_create(
        answered_question=row,
        defaults={"best_score": row.retrieval_score, "citation_score": row.verification.get("citation_score"),
                  "report": report, "topic_gap": (report["topic_gaps"] or [""])[0][:64], **resolved},
    )
    logging.getLogger("verification.low_confidence").warning(json.dumps({"answered_question_id": row.id, **report},
                                                                        default=str))
    return obj


def low_confidence_report_resolve(*, report: LowConfidenceReport, user, note: str) -> LowConfidenceReport:
    """Resolve a low-confidence report with a note saying what was done (a note is required)."""
    note = _require(note, "resolve the report of")
    with transaction.atomic():
        locked = LowConfidenceReport.objects.select_for_update().get(id=report.id)
        _resolved(locked, user=user, note=note)
        return locked


def _report_resolve(*, answered_question_id: int, user, note: str) -> None:
    report = (LowConfidenceReport.objects.select_for_update()
              .filter(answered_question_id=answered_question_id, status=LowConfidenceReport.Status.OPEN).first())
    if report is not None:
        _resolved(report, user=user, note=note)


def _resolved(report: LowConfidenceReport, *, user, note: str) -> None:
    report.status = LowConfidenceReport.Status.RESOLVED
    report.resolution_note, report.resolved_by, report.resolved_at = note, user, timezone.now()
    report._history_user = user
    report._change_reason = f"resolved: {note}"[:100]
    report.save(update_fields=["status", "resolution_note", "resolved_by", "resolved_at", "updated_at"])


# ---- who may decide ----

REVIEWER_GROUP = "reviewer"
READER_GROUP = "review reader"
# Reviewers decide on answers and reports and edit the knowledge base; readers (any staff given the group)
# read everything and change nothing.
REVIEWER_PERMISSIONS = (
    "knowledge.verify_answeredquestion", "knowledge.flag_answeredquestion", "knowledge.correct_answeredquestion",
    "verification.resolve_lowconfidencereport",
    "knowledge.change_chunk", "knowledge.delete_chunk",
    "knowledge.add_entity", "knowledge.change_entity", "knowledge.add_topic", "knowledge.change_topic",
    "knowledge.change_source",
)
READER_PERMISSIONS = tuple(
    f"{app}.view_{model}" for app, model in (
        ("knowledge", "answeredquestion"), ("knowledge", "chunk"), ("knowledge", "entity"), ("knowledge", "topic"),
        ("knowledge", "source"), ("knowledge", "answersourcechange"), ("verification", "lowconfidencereport"),
        ("verification", "lowconfidencedigest"),
    )
)


def reviewer_groups_ensure(*, using: str = "default") -> None:
    """Create the reviewer and reader groups with their permissions (idempotent; run after every migrate)."""
    from django.contrib.auth.models import Group, Permission

    for name, codenames in ((REVIEWER_GROUP, REVIEWER_PERMISSIONS + READER_PERMISSIONS),
                            (READER_GROUP, READER_PERMISSIONS)):
        wanted = [tuple(c.split(".")) for c in codenames]
        perms = [p for p in Permission.objects.using(using).select_related("content_type")
                 if (p.content_type.app_label, p.codename) in wanted]
        group, _ = Group.objects.using(using).get_or_create(name=name)
        group.permissions.add(*perms)
