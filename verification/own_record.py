"""Questions about the asker's own record ("what is my claim status", "when is my next payment"): only VA's
systems hold the answer, so the reply says where it lives instead of answering with general text.

The phrases are data (verification/data/own_record.json), read once through ``own_record_patterns_get``.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from verification.layers.refusal import VA_BENEFITS_PHONE

DATA = Path(__file__).resolve().parent / "data" / "own_record.json"

KIND_CLAIM_STATUS = "claim_status"
KIND_DECISION = "decision"
KIND_RATING = "rating"
KIND_PAYMENT = "payment"
KIND_DOCUMENTS = "documents"
KIND_SOMEONE_ELSE = "someone_else"

# [1] is a page on the claim and appeal status tool, [2] one on accredited representatives (URL_SUFFIXES).
OWN_RECORD_MESSAGES = {
    KIND_CLAIM_STATUS: (
        "I can't see your VA records, so I can't tell you where your claim or appeal stands. You can see it "
        "yourself: sign in at VA.gov with a verified account, such as Login.gov or ID.me, and open the claim and "
        "appeal status tool. It shows your claim's stage, the evidence VA has received and anything VA still "
        "needs from you [1]."
    ),
    KIND_DECISION: (
        "I can't see your VA records, so I can't tell you why VA decided your claim as it did. Your decision "
        "letter gives the reasons: for each issue it says what VA decided, the evidence it looked at and why. "
        "You can download it by signing in at VA.gov with a verified account, such as Login.gov or ID.me, and "
        "opening the claim and appeal status tool [1]. If you disagree, the letter also says how to ask for a "
        "decision review: a Supplemental Claim, a Higher-Level Review or a Board Appeal."
    ),
    KIND_RATING: (
        "I can't see your VA records, so I can't tell you your rating. You can see it by signing in at VA.gov "
        "with a verified account, such as Login.gov or ID.me; your rating decision letter also lists the rating "
        "of each condition and your combined rating."
    ),
    KIND_PAYMENT: (
        "I can't see your VA records, so I can't tell you about your payments. Sign in at VA.gov with a verified "
        "account, such as Login.gov or ID.me, to see your VA payment history: the date and amount of each payment."
    ),
    KIND_DOCUMENTS: (
        "I can't see your VA records, so I can't tell whether VA has your documents. Sign in at VA.gov and open "
        "the claim and appeal status tool: it lists the evidence VA has received [1]. Not every document you "
        "send appears online, and items sent by mail or fax may not show [1]."
    ),
    KIND_SOMEONE_ELSE: (
        "I can't see anyone's VA records. VA shares a person's claim, rating and payments only with that person "
        "or someone they have authorized, such as their accredited representative. They can see where their "
        "claim stands themselves: sign in at VA.gov with a verified account, such as Login.gov or ID.me, and "
        "open the claim and appeal status tool [1]."
    ),
}
OWN_RECORD_HELP = (
    f"For help with your own record, call VA's benefits line at {VA_BENEFITS_PHONE}, or ask an accredited "
    "representative: a Veterans Service Organization (VSO) representative helps for free [2]."
)
SOMEONE_ELSES_HELP = (
    f"They can call VA's benefits line at {VA_BENEFITS_PHONE}, or ask an accredited representative: a Veterans "
    "Service Organization (VSO) representative helps for free [2]."
)
URL_SUFFIXES = {1: "/claim-or-appeal-status/", 2: "/get-help-from-accredited-representative/"}

_APOSTROPHES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'"})
_WHITESPACE_RE = re.compile(r"\s+")
_TRAILING_PUNCT_RE = re.compile(r"[\s?!.,;:]+$")


@functools.cache
def own_record_patterns_get() -> dict[str, re.Pattern[str]]:
    """Return each kind's phrases, compiled to one word-bounded alternation."""
    tables = json.loads(DATA.read_text(encoding="utf-8"))
    return {kind: re.compile(r"(?<!\w)(?:" + "|".join(phrases) + r")(?!\w)")
            for kind, phrases in tables.items() if not kind.startswith("_")}


# "My claim status says 'preparation for notification', what does that mean": the asker has read their record
# and asks what its words mean, which the pages on the claim's steps answer.
_MEANING_ASKED_RE = re.compile(r"\b(?:says?|said|shows?|showing|showed|reads|changed to|moved to|went to|is in|is at)\b"
                               r"[^?!]{1,80}\bwhat (?:does|do|did|is) (?:that|this|it|those|these)(?: status| step)? mean"
                               # "What does preparation for notification mean on my claim status": a step named.
                               r"|\bwhat (?:does|do) (?!my\b|our\b)[\w' ]{1,50}? mean\b")


# "If they approve it, when does my back pay start from": the rule that dates a payment is asked, not the record.
_RULE_ASKED_RE = re.compile(r"\b(?:start from|starts from|go(?:es)? back to|back ?dat\w*|if (?:they|va|it|"
                            r"the va) (?:approve|grant)s?(?: it| me)?)\b")


def own_record_kind(*, question: str) -> str | None:
    """Return which part of the asker's own record the question asks about, or None."""
    text = _TRAILING_PUNCT_RE.sub("", _WHITESPACE_RE.sub(" ", question.translate(_APOSTROPHES).casefold()).strip())
    if _MEANING_ASKED_RE.search(text) or _RULE_ASKED_RE.search(text):
        return None
    for kind, pattern in own_record_patterns_get().items():
        if pattern.search(text):
            return kind
    return None


def own_record_answer(*, kind: str) -> str:
    help_text = SOMEONE_ELSES_HELP if kind == KIND_SOMEONE_ELSE else OWN_RECORD_HELP
    return f"{OWN_RECORD_MESSAGES[kind]}\n\n{help_text}"
