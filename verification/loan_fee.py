"""Whether a veteran who gives their own rating pays the VA home loan funding fee.

"I'm 10% service connected for tinnitus, 2nd VA loan, 0 down, do I have to pay the funding fee? isn't it like 3
percent": the answer led with the 3.3% row of the fee table. Veterans receiving VA disability compensation are exempt
from the funding fee on every VA-backed loan (VA's funding fee pages), and a rating of 10% or more is paid
compensation, so the answer is no, and the Certificate of Eligibility shows the lender the exemption.

Read strictly: the asker's own rating, 10% or more, beside the funding fee and a question whether it is owed; a 0%
rating, a rating still pending or proposed, a refund of a fee already paid, a survivor's or someone else's loan, and
an active-duty service member's are left to the generator.
"""

from __future__ import annotations

import re

FEE_URL_SUFFIX = "/housing-assistance/home-loans/funding-fee-and-closing-costs/"
COE_URL_SUFFIX = "/housing-assistance/home-loans/how-to-request-coe/"

_FEE_RE = re.compile(r"\bfunding fee\b", re.IGNORECASE)
_OWED_ASKED_RE = re.compile(
    r"\b(?:have to|need to|do i|will i|would i|must i|should i|gotta|got to|am i|still)\b[^.?!]{0,25}\bpay\b|"
    r"\bexempt\w*\b|\bwaiv\w*\b|\bget out of (?:it|paying|the)\b|\bowe\b|\bcharged?\b|\bavoid\b|\bskip\b",
    re.IGNORECASE)
# The asker's own rating: "I'm 10% service connected", "rated 30%", "i have a 30% rating", "my rating is 70".
_OWN_RATING_RE = re.compile(
    r"\b(?:i'?m|im|i am|i'?ve been|rated(?: at)?|i have a|i got a|i get|my rating is|with my|with a|"
    # "my combined rating just went up to 40%", "VA bumped me to 70 percent"
    r"my (?:combined )?rating (?:just )?(?:went up|got raised|was raised|increased) to|bumped me (?:up )?to)\s+(?:now\s+)?"
    r"(?P<value>100|[1-9]0)\s?(?:%|percent\b)"
    r"|(?<![\d.])(?P<value2>100|[1-9]0)\s?(?:%|percent)\s+(?:service[- ]?connected|sc\b|disabled|disability|rating|rated|va)",
    re.IGNORECASE)
_LEFT_ALONE_RE = re.compile(
    r"\b(?:refund\w*|pending|proposed|memorandum|surviv\w*|widow\w*|dic|husband|wife|spouse|dad|mom|father|mother|"
    r"son|daughter|active duty|still serving|purple heart|0\s?%|zero percent|noncompensable|0 percent)\b",
    re.IGNORECASE)


def funding_fee_rating_parse(*, text: str) -> int | None:
    """The asker's own rating when they ask whether they owe the funding fee, or None."""
    if not _FEE_RE.search(text) or not _OWED_ASKED_RE.search(text) or _LEFT_ALONE_RE.search(text):
        return None
    rating = own_rating_find(text=text)
    return rating if rating is not None and rating >= 10 else None


def own_rating_find(*, text: str) -> int | None:
    """The one rating the asker says is theirs ("I'm 10% service connected", "my rating is 70%"), or None when they
    give none or several."""
    ratings = {int(m.group("value") or m.group("value2")) for m in _OWN_RATING_RE.finditer(text)}
    return ratings.pop() if len(ratings) == 1 else None


def funding_fee_answer(*, rating: int) -> str:
    """[1] cites the purchase fee table's exemption, [2] the other loan types', [3] what a COE shows."""
    return (f"No: veterans receiving VA disability compensation are exempt from the VA funding fee [1], and borrowers "
            f"who are exempt pay no funding fee on any VA-backed loan type [2]. A {rating}% "
            "service-connected rating is paid compensation, so the fee should not be charged on your loan. Your "
            "Certificate of Eligibility (COE) shows the lender whether you are exempt from the funding fee [3].")
