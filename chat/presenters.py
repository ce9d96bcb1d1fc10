"""What the chat page shows for each turn, built from the stored answer: the answer as safe HTML with linked
[n] markers, the sources with their domains, and the plain-words notes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from urllib.parse import urlsplit

from django.utils.safestring import SafeString

from chat.models import AnswerFeedback, ConversationTurn
from knowledge import selectors as kb
from verification.layers.confidence import BAND_HIGH, BAND_LOW, BAND_MEDIUM, confidence_band
from verification.preprocess import PII_NOTICE
from verification.rendering import domain_allowed, markdown_render
from verification.review import cached_answer_content
from verification.scope import CATEGORY_CRISIS

CONFIDENCE_STRONG = "Strong match: the sources below say this directly."
CONFIDENCE_GOOD = "Good match: the sources below cover this. Check them for details that fit your situation."
CONFIDENCE_WEAK = ("Weak match: this may not fully answer your question. Check the sources below, or talk to a "
                   "person (see “Talk to a person”).")
ANSWER_GONE = "This answer is no longer available. Please ask again."
THANKS_HELPFUL = "Thank you for telling us."
THANKS_NOT_HELPFUL = "Thank you. A reviewer will look at this answer."
CONFIDENCE_NOTES = {BAND_HIGH: CONFIDENCE_STRONG, BAND_MEDIUM: CONFIDENCE_GOOD, BAND_LOW: CONFIDENCE_WEAK}


@dataclass(frozen=True)
class Source:
    number: int
    title: str
    url: str
    domain: str


@dataclass(frozen=True)
class TurnView:
    id: int
    answer_id: int | None
    question: str
    rewritten: str
    answer_html: SafeString | str
    sources: list[Source]
    refused: bool
    crisis: bool
    warning: str
    verified: bool
    confidence_note: str
    suggestions: list[str]
    pii_notice: str
    checked_on: date | None = None
    feedback_state: str = "vote"  # "vote", "reason" (asking why not helpful) or "thanks"
    thanks: str = ""


def confidence_note(confidence: float) -> str:
    return CONFIDENCE_NOTES[confidence_band(confidence)]


CRISIS_DECISION = f"out_of_scope:{CATEGORY_CRISIS}"


def _is_crisis(trace: list[dict]) -> bool:
    return any(stage.get("decision") == CRISIS_DECISION for stage in trace)


def feedback_state(feedback: AnswerFeedback | None, *, asking_reason: bool = False) -> tuple[str, str]:
    """The feedback block's state and its thanks line: a "no" vote asks why until the reason is sent."""
    if asking_reason:
        return "reason", ""
    if feedback is None:
        return "vote", ""
    return "thanks", THANKS_HELPFUL if feedback.helpful else THANKS_NOT_HELPFUL


def turn_present(turn: ConversationTurn, *, domains: list[str], feedback: AnswerFeedback | None = None,
                 asking_reason: bool = False) -> TurnView:
    row = turn.answered_question
    notice = PII_NOTICE if turn.pii_removed else ""
    if row is None:
        return TurnView(id=turn.id, answer_id=None, question=turn.question, rewritten=turn.rewritten_question,
                        answer_html=ANSWER_GONE, sources=[], refused=True, crisis=False, warning="", verified=False,
                        confidence_note="", suggestions=[], pii_notice=notice)
    served = cached_answer_content(row=row, under_review=row.flagged)  # a flagged answer's text is never shown
    sources = [
        Source(number=c["number"], title=c.get("title") or c["url"], url=c["url"],
               domain=(urlsplit(c["url"]).hostname or "").removeprefix("www."))
        for c in served.citations if domain_allowed(c.get("url", ""), domains)
    ]
    return TurnView(
        id=turn.id, answer_id=row.id, question=turn.question, rewritten=turn.rewritten_question,
        answer_html=markdown_render(served.answer, domains=domains, anchor_prefix=f"t{turn.id}-s",
                                    citation_count=max((s.number for s in sources), default=0)),
        sources=sources, refused=served.refused, crisis=served.refused and _is_crisis(row.trace),
        warning=served.warning or "", verified=row.verified,
        confidence_note="" if served.refused else confidence_note(row.confidence),
        suggestions=list(served.suggestions)[:3], pii_notice=notice,
        checked_on=kb.sources_checked_on(entry_ids=[c["chunk_id"] for c in served.citations]) if sources else None,
        **dict(zip(("feedback_state", "thanks"), feedback_state(feedback, asking_reason=asking_reason), strict=True)),
    )
