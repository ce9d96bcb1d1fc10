"""The answer service: validate a question, then run the answer pipeline (verification.pipeline).

question ─► scrub PII ─► normalise ─► L1 exact cache ─► topics + entities ─► scope and entity checks
─► embed ─► terminology first ─► L2 semantic / L3 graph cache ─► hybrid retrieval ─► L1 relevance
─► L1b refusal ─► route ─► generate ─► L6 cleanup ─► L3 URLs ─► L4 citations ─► L5 numbers ─► fallback
─► L7 confidence ─► store ─► respond

The steps, in that order, are ``verification.pipeline.ANSWER_STEPS``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from django.conf import settings

from knowledge import selectors as kb
from verification.followup import HISTORY_MAX
from verification.pipeline import answer_pipeline_run
from verification.pipeline.generation import whitelist as _whitelist
from verification.pipeline.state import AnswerResult, AnswerState
from veterans_ai.request_context import request_id_get, request_id_new
from veterans_ai.resilience import time_budget

__all__ = ["AnswerResult", "QuestionInvalid", "_whitelist", "answer_question", "question_validate"]

ERR_EMPTY = "The question is empty. Type a question about VA benefits."
ERR_TOO_LONG = "The question is too long: at most {limit} characters, please."
ERR_CONTROL = "The question contains control characters. Remove them and try again."
ERR_NOT_TEXT = "The question must be text."
ERR_UNKNOWN_TOPIC = "There is no topic “{topic}”. Use one of: {topics}."
ERR_UNKNOWN_SOURCE = "There is no source “{source}”. Give the address of an official page the answers cite."
ERR_HISTORY = "The history must be a list of the conversation's earlier questions, as text."
# A topic or source echoed back in an error is cut here, so a pasted paragraph can't fill the message.
MAX_ECHO_CHARS = 120
_CONTROL_ALLOWED = {"\n", "\t", "\r"}


class QuestionInvalid(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def question_validate(*, question: object) -> str:
    """Return the trimmed question or raise QuestionInvalid with a message for the user."""
    if not isinstance(question, str):
        raise QuestionInvalid("invalid_type", ERR_NOT_TEXT)
    if any(unicodedata.category(ch) == "Cc" and ch not in _CONTROL_ALLOWED for ch in question):
        raise QuestionInvalid("control_characters", ERR_CONTROL)
    question = question.strip()
    if not question:
        raise QuestionInvalid("empty_question", ERR_EMPTY)
    if len(question) > settings.QUESTION_MAX_CHARS:
        raise QuestionInvalid("question_too_long", ERR_TOO_LONG.format(limit=settings.QUESTION_MAX_CHARS))
    return question


def answer_question(
    *, question: object, use_cache: bool = True, request_id: str | None = None, topic: str | None = None,
    source: str | None = None, history: Sequence[str] = (),
) -> AnswerResult:
    """Answer a question from the knowledge base with citations, or refuse; store and return the answer.

    ``topic`` (a topic slug) or ``source`` (a source's URL) keep retrieval and every cache level to that topic
    or page. Answering takes at most ANSWER_TIME_BUDGET_SECONDS: a hanging embedding service or LLM ends in
    the offline path (veterans_ai.resilience). ``history`` holds the conversation's earlier questions, oldest
    first, as they were answered (rewritten, personal data removed); a follow-up is rewritten with them before
    anything else.
    """
    state = AnswerState(
        asked=question_validate(question=question), use_cache=use_cache,
        request_id=request_id or request_id_get() or request_id_new(), topic=topic_validate(topic=topic),
        source=source_validate(source=source), history=history_validate(history=history),
    )
    with time_budget():  # every outside call fits in it, the offline path included
        return answer_pipeline_run(state)


def topic_validate(*, topic: object) -> str | None:
    """Return the topic slug, None when none is given, or raise QuestionInvalid naming an unknown one."""
    if topic is None or topic == "":
        return None
    if not isinstance(topic, str) or topic not in kb.topic_ids_get():
        known = ", ".join(sorted(kb.topic_ids_get()))
        raise QuestionInvalid("unknown_topic", ERR_UNKNOWN_TOPIC.format(topic=_echo(topic), topics=known))
    return topic


def source_validate(*, source: object) -> str | None:
    """Return the source URL, None when none is given, or raise QuestionInvalid naming an unknown one."""
    if source is None or source == "":
        return None
    if not isinstance(source, str) or not kb.source_exists(url=source):
        raise QuestionInvalid("unknown_source", ERR_UNKNOWN_SOURCE.format(source=_echo(source)))
    return source


def history_validate(*, history: object) -> tuple[str, ...]:
    """Return the last HISTORY_MAX earlier questions, trimmed, or raise QuestionInvalid."""
    if isinstance(history, str) or not isinstance(history, Sequence) or \
            not all(isinstance(item, str) for item in history):
        raise QuestionInvalid("invalid_history", ERR_HISTORY)
    return tuple(item.strip() for item in history if item.strip())[-HISTORY_MAX:]


def _echo(value: object) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= MAX_ECHO_CHARS else text[: MAX_ECHO_CHARS - 1] + "…"
