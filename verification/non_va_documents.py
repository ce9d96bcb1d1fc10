"""Documents another agency issues (DD-214, SF-180, NGB-22, ...): known as such, so a question about one is
answered or routed instead of being refused as an unknown VA form. The list is data
(knowledge/data/non_va_documents.json, read by knowledge.selectors.non_va_documents_get)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from knowledge.selectors import NonVaDocument

NON_VA_DOCUMENT_ANSWER = "The {number} ({name}) is a {agency} document, not a VA form. It is {what} [1]. {get} [1]."
# Asking what the document is, or how to get, replace or send it; other questions that name it ("do I need
# my DD-214 to file a claim?") go on to retrieval.
_ABOUT_DOCUMENT_RE = re.compile(
    r"\b(?:what(?:'s| is| are|s)|define|definition|meaning|mean|means|stand for|"
    r"how (?:do|can|would|should) (?:i|we|you|my \w+) (?:get|request|obtain|find|replace|order|send|file|submit|use)|"
    r"where (?:do|can|would|should) (?:i|we) (?:get|find|request|send|file|submit)|"
    r"(?:get|request|order|obtain|replace|need) (?:a |my |an |the )?(?:new |replacement |certified )?cop(?:y|ies)|"
    r"copy of|lost (?:my|our|his|her)|can't find (?:my|our)|cannot find (?:my|our))\b",
    re.IGNORECASE,
)


def _alias_re(alias: str) -> str:
    return r"[\s-]*".join(re.escape(part) for part in re.split(r"[\s-]+", alias))


def non_va_document_find(*, question: str, documents: Sequence[NonVaDocument]) -> NonVaDocument | None:
    """Return the first non-VA document the question names, by number or alias."""
    found = []
    for document in documents:
        names = "|".join(_alias_re(name) for name in (document.number, *document.aliases))
        if match := re.search(rf"(?<![\w-])(?:{names})(?![\w-])", question, re.IGNORECASE):
            found.append((match.start(), document))
    return min(found, key=lambda pair: pair[0])[1] if found else None


# How near the asking words the document is named: "how do I get a copy of my husband's DD-214" asks for it; "how
# do I get that veteran ID card so I can quit carrying my DD214 around" asks for the card.
ASKED_WITHIN_CHARS = 35


def asks_about_document(*, question: str, document: NonVaDocument | None = None) -> bool:
    """Whether the question asks what the document is or how to get, replace or send it; with ``document``, whether
    it is that document the asking words are about (named within ASKED_WITHIN_CHARS of them, in one sentence)."""
    if document is None:
        return bool(_ABOUT_DOCUMENT_RE.search(question))
    names = "|".join(_alias_re(name) for name in (document.number, *document.aliases))
    mentions = [m.span() for m in re.finditer(rf"(?<![\w-])(?:{names})(?![\w-])", question, re.IGNORECASE)]
    for asked in _ABOUT_DOCUMENT_RE.finditer(question):
        for start, end in mentions:
            between = question[asked.end():start] if start >= asked.end() else question[end:asked.start()]
            if len(between) <= ASKED_WITHIN_CHARS and not re.search(r"[.?!;]", between):
                return True
    return False


def non_va_document_answer(*, document: NonVaDocument) -> str:
    return NON_VA_DOCUMENT_ANSWER.format(number=document.number, name=document.name, agency=document.agency,
                                         what=document.what, get=document.get.rstrip("."))
