"""Misspelled words corrected to the knowledge base's own words before a question is answered.

"Whats the raiting for ptsd at 50 precent" was refused as an unknown term, and "does the gi bil pay for colege"
was answered with flight training: a word no source and no English word list holds, one edit (a letter left out,
added, changed, or two swapped) away from a word the sources use, is read as that word, the most frequent one
when several are. Short words, words the embedding model's vocabulary knows (an English word list of 30,000
entries) and apostrophe-less contractions ("dont", "whats") are left alone, as is anything further than one edit,
and a word one inflection's letter from a corpus word ("diagnose" beside "diagnosed"): that is a word the lists
lack, not a misspelling.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

_WORD_RE = re.compile(r"[A-Za-z]+")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Shorter words have too many neighbours one edit away ("bil" is "bill", "oil" or "nil").
MIN_CORRECTED_LENGTH = 5
# Contractions typed without their apostrophe: words, not misspellings.
CONTRACTIONS = frozenset(
    "dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt werent hasnt havent hadnt "
    "whats thats theres heres wheres whos hows lets youre theyre weve youve theyve ive im ill id hes shes".split()
)

# Everyday words the model's vocabulary lacks that sit one edit from a corpus word: "its my left arm and im a
# righty" is the dominant hand, not "right".
_EVERYDAY = frozenset("righty lefty righties lefties".split())


def spelling_correct(*, text: str, corpus_words: Mapping[str, int], known: frozenset[str] | set[str]) -> str:
    """Return ``text`` with each misspelled word replaced by the corpus word one edit away (in lower case)."""

    def replace(match: re.Match[str]) -> str:
        word = match.group(0)
        return _correction(word.lower(), corpus_words, known) or word

    return _WORD_RE.sub(replace, text)


def _correction(word: str, corpus_words: Mapping[str, int], known) -> str | None:
    if len(word) < MIN_CORRECTED_LENGTH or word in corpus_words or word in known or word in CONTRACTIONS \
            or word in _EVERYDAY:
        return None
    candidates = [w for w in _edits(word) if w in corpus_words]
    if any(_inflection_of(word, w) for w in candidates):
        return None  # "diagnose" beside the corpus's "diagnosed": a word the lists lack, not a misspelling
    return max(candidates, key=lambda w: (corpus_words[w], w)) if candidates else None


def _inflection_of(word: str, other: str) -> bool:
    """Whether one word is the other with an inflection's last letter added ("diagnose", "diagnosed")."""
    shorter, longer = sorted((word, other), key=len)
    return longer[:-1] == shorter and longer[-1] in "ds"


@functools.lru_cache(maxsize=4096)
def _edits(word: str) -> frozenset[str]:
    """Every string one deletion, transposition, replacement or insertion away from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = [a + b[1:] for a, b in splits if b]
    transposes = [a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1]
    replaces = [a + c + b[1:] for a, b in splits if b for c in _LETTERS]
    inserts = [a + c + b for a, b in splits for c in _LETTERS]
    return frozenset(deletes + transposes + replaces + inserts)
