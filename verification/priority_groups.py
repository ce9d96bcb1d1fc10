"""Which VA health care priority group a veteran's own service-connected rating places them in.

"My combined rating just went up to 40%. What priority group does that put me in, and do I still pay copays": the
answer led with groups 7 and 8 (the income groups) and named group 2 only in passing. VA's priority group pages
place a rating of 50% or more in group 1, 30% or 40% in group 2 and 10% or 20% in group 3, and care for
service-connected conditions is free in every group; group 1 pays no copays at all.

Read strictly: the asker's own single rating, 10% or more, beside a question about their priority group; a 0%
rating (groups 5 and 6 read income and service, not the rating), a pending or proposed rating, several figures and
someone else's rating are left to the generator.
"""

from __future__ import annotations

import re

from verification.loan_fee import own_rating_find

PRIORITY_URL_SUFFIX = "/health-care/eligibility/"

_GROUP_ASKED_RE = re.compile(r"\bpriority (?:group|grp|level|category)\b|\bpg\s?[1-8]\b", re.IGNORECASE)
_LEFT_ALONE_RE = re.compile(
    r"\b(?:pending|proposed|surviv\w*|widow\w*|husband|wife|spouse|dad|mom|father|mother|son|daughter|brother|"
    r"sister|0\s?%|zero percent|noncompensable|0 percent|income|pension)\b",
    re.IGNORECASE)

# The group a rating places a veteran in, with the words of VA's page that say so (cited as [1]).
_GROUPS = ((50, 1, "Priority group 1 includes veterans with a service-connected disability rated 50% or more"),
           (30, 2, "Priority group 2 includes veterans with a service-connected disability rating of 30% or 40%"),
           (10, 3, "veterans with a service-connected rating of 10% or 20%"))
FREE_WORDS = "Care for service-connected conditions is free for every priority group"
NO_COPAYS_WORDS = "Priority group 1 veterans do not pay copays for VA care"


def priority_group_rating_parse(*, text: str) -> int | None:
    """The asker's own rating when they ask which priority group it places them in, or None."""
    if not _GROUP_ASKED_RE.search(text) or _LEFT_ALONE_RE.search(text):
        return None
    rating = own_rating_find(text=text)
    return rating if rating is not None and rating >= 10 else None


def priority_group(*, rating: int) -> tuple[int, str]:
    """The group a rating of 10% or more places a veteran in, and the page's words that say so."""
    return next((group, words) for lowest, group, words in _GROUPS if rating >= lowest)


def priority_group_answer(*, rating: int) -> str:
    """[1] cites the page's sentence on the group, [2] that service-connected care is free (and, for group 1, [3]
    that it pays no copays)."""
    group, _ = priority_group(rating=rating)
    held = {1: "50% or more", 2: "30% or 40%", 3: "10% or 20%"}[group]
    # The asker's own figure is not said again: every number the answer states is its sources'.
    answer = (f"Your service-connected rating puts you in priority group {group}: VA places veterans rated {held} there "
              "[1]. Care for your service-connected conditions is free in every priority group [2].")
    if group == 1:
        answer += " Priority group 1 veterans pay no copays for VA care [3]."
    return answer
