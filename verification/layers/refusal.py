"""Layer 1b: say plainly why there is no answer, and where help is.

Every message points to VA's benefits line and to accredited Veterans Service Organizations, whose
representatives help with claims at no cost; neither promises anything the product cannot check.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from verification.layers.types import Refusal

REASON_RETRIEVAL_TOO_WEAK = "retrieval_too_weak"
REASON_OUT_OF_SCOPE = "out_of_scope"
REASON_ENTITY_NOT_FOUND = "entity_not_found"
REASON_TERMINOLOGY_NOT_FOUND = "terminology_not_found"
REASON_TERMINOLOGY_UNVERIFIED = "terminology_unverified"
REASON_UNSUPPORTED_ANSWER = "unsupported_answer"
REASON_UNDER_REVIEW = "under_review"  # a reviewer flagged the answer to this question (verification.review)
REFUSAL_REASONS = (
    REASON_RETRIEVAL_TOO_WEAK,
    REASON_OUT_OF_SCOPE,
    REASON_ENTITY_NOT_FOUND,
    REASON_TERMINOLOGY_NOT_FOUND,
    REASON_TERMINOLOGY_UNVERIFIED,
    REASON_UNSUPPORTED_ANSWER,
    REASON_UNDER_REVIEW,
)

# VA's national benefits line (va.gov/contact-us).
VA_BENEFITS_PHONE = "1-800-827-1000"
_WHERE_HELP_IS = (
    f"You can call VA at {VA_BENEFITS_PHONE}, or ask an accredited Veterans Service Organization (VSO) "
    "representative, who can help you for free."
)

REFUSAL_RETRIEVAL_TOO_WEAK = (
    "I'm sorry, I couldn't find anything in my sources that answers this question well enough, "
    "and I don't want to guess. You could try asking it another way. " + _WHERE_HELP_IS
)
# Weak retrieval for a question whose own subject is words no source holds ("kitchen sink is draining slow, bought
# this house with my va loan"): asking it another way would not help.
REFUSAL_SUBJECT_NOT_COVERED = (
    "My VA benefits sources don't cover what this question is about, so I can't answer it and I won't guess. I can "
    "help with VA benefits such as disability ratings, claims and appeals, the GI Bill, VA home loans, pension, "
    "CHAMPVA and VA health care. If your question is about a VA benefit, you can call VA at " + VA_BENEFITS_PHONE
    + " or ask an accredited Veterans Service Organization (VSO) representative, who can help you for free."
)
REFUSAL_OUT_OF_SCOPE = (
    "This question seems to be about a program that VA doesn't run, so my VA benefits sources can't "
    "answer it. " + _WHERE_HELP_IS
)
REFUSAL_OUT_OF_SCOPE_WITH_HANDLER = (
    "This question is about a program run by {handler}, not a VA benefit, so my VA benefits sources can't answer it. "
    "Please contact them directly. For VA benefits, you can call VA at "
    + VA_BENEFITS_PHONE
    + " or ask an accredited Veterans Service Organization (VSO) representative."
)
REFUSAL_ENTITY_NOT_FOUND = (
    "I couldn't find {entity} in {where}. It may be mistyped, or it may not exist. Please check the number. "
    + _WHERE_HELP_IS
)
REFUSAL_ENTITY_NOT_FOUND_GENERIC = (
    "I couldn't find that diagnostic code or form number in VA's rating schedule or forms. It may be "
    "mistyped, or it may not exist. Please check the number. " + _WHERE_HELP_IS
)
# Where each kind of entity is looked up (knowledge/ holds the rating schedule's codes and VA's forms).
ENTITY_WHERE = {
    "dc_code": "VA's rating schedule (38 CFR Part 4)",
    "va_form": "VA's list of forms",
}
ENTITY_LABEL = {"dc_code": "diagnostic code {value}", "va_form": "VA Form {value}"}
REFUSAL_TERMINOLOGY_NOT_FOUND = (
    "I don't have a definition of \u201c{term}\u201d in my VA benefits glossary, and I don't want to guess "
    "what it means. " + _WHERE_HELP_IS
)
REFUSAL_TERMINOLOGY_NOT_FOUND_GENERIC = (
    "I don't have a definition of that term in my VA benefits glossary, and I don't want to guess what it "
    "means. " + _WHERE_HELP_IS
)
REFUSAL_TERMINOLOGY_UNVERIFIED = (
    "I have a definition of \u201c{term}\u201d, but it hasn't been checked by a reviewer yet, so I won't "
    "give it as fact. " + _WHERE_HELP_IS
)
REFUSAL_TERMINOLOGY_UNVERIFIED_GENERIC = (
    "I have a definition of that term, but it hasn't been checked by a reviewer yet, so I won't give it as "
    "fact. " + _WHERE_HELP_IS
)
REFUSAL_UNSUPPORTED_ANSWER = (
    "I found some related information, but I couldn't check an answer against my sources, so I won't "
    "guess. " + _WHERE_HELP_IS
)

# Three suggestions fit on a phone screen under the message.
MAX_SUGGESTIONS = 3
# A term or entity echoed back from the question is cut here, so a pasted paragraph can't fill the message.
MAX_ECHO_CHARS = 80

_WHITESPACE_RE = re.compile(r"\s+")
_UNSAFE_ECHO_RE = re.compile(r"[<>{}\[\]`\u201c\u201d\"]")


def _echo_clean(value: str) -> str:
    value = _WHITESPACE_RE.sub(" ", _UNSAFE_ECHO_RE.sub("", value)).strip()
    if len(value) > MAX_ECHO_CHARS:
        value = value[: MAX_ECHO_CHARS - 1].rstrip() + "\u2026"
    return value


def _message_build(reason: str, detail: Mapping[str, str]) -> str:
    if reason == REASON_RETRIEVAL_TOO_WEAK:
        return REFUSAL_SUBJECT_NOT_COVERED if detail.get("subject") == "not_covered" else REFUSAL_RETRIEVAL_TOO_WEAK
    if reason == REASON_UNSUPPORTED_ANSWER:
        return REFUSAL_UNSUPPORTED_ANSWER
    if reason == REASON_OUT_OF_SCOPE:
        handler = _echo_clean(detail.get("handler", ""))
        if not handler:
            return REFUSAL_OUT_OF_SCOPE
        return REFUSAL_OUT_OF_SCOPE_WITH_HANDLER.format(handler=handler)
    if reason == REASON_ENTITY_NOT_FOUND:
        kind, value = detail.get("kind", ""), _echo_clean(detail.get("value", ""))
        entity = _echo_clean(detail.get("entity", ""))
        if not entity and value and kind in ENTITY_LABEL:
            entity = ENTITY_LABEL[kind].format(value=value)
        if not entity:
            return REFUSAL_ENTITY_NOT_FOUND_GENERIC
        where = ENTITY_WHERE.get(kind, "VA's rating schedule or forms")
        return REFUSAL_ENTITY_NOT_FOUND.format(entity=entity, where=where)
    term = _echo_clean(detail.get("term", ""))
    if reason == REASON_TERMINOLOGY_NOT_FOUND:
        return REFUSAL_TERMINOLOGY_NOT_FOUND.format(term=term) if term else REFUSAL_TERMINOLOGY_NOT_FOUND_GENERIC
    return REFUSAL_TERMINOLOGY_UNVERIFIED.format(term=term) if term else REFUSAL_TERMINOLOGY_UNVERIFIED_GENERIC


def refusal_build(
    *, reason: str, suggestions: Sequence[str] = (), detail: Mapping[str, str] | None = None
) -> Refusal:
    """Return the refusal for ``reason`` with at most three distinct, non-empty suggestions.

    ``detail`` fills the message where it names something: ``handler`` for out_of_scope (e.g. "the Social
    Security Administration (ssa.gov)"); ``kind`` ("dc_code" or "va_form") and ``value``, or a ready
    ``entity`` phrase, for entity_not_found; ``term`` for the two terminology reasons; ``subject`` "not_covered"
    for retrieval_too_weak when the question's own subject is words no source holds (asking again would not
    help). Missing detail gives the generic message, never a half-filled one.
    """
    if reason not in REFUSAL_REASONS:
        raise ValueError(f"unknown refusal reason {reason!r}; expected one of {', '.join(REFUSAL_REASONS)}")
    cleaned: list[str] = []
    for suggestion in suggestions:
        text = _WHITESPACE_RE.sub(" ", suggestion).strip()
        if text and text.casefold() not in {seen.casefold() for seen in cleaned}:
            cleaned.append(text)
        if len(cleaned) == MAX_SUGGESTIONS:
            break
    return Refusal(reason=reason, message=_message_build(reason, detail or {}), suggestions=tuple(cleaned))
