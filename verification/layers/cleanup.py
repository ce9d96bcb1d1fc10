"""Layer 6: normalise citation markers to ``[n]`` and drop the ones that name no source.

The pipeline runs this layer first, on the model's raw answer, so every later layer sees only well-formed,
in-range markers. It also owns the two text helpers the other layers share: ``citations_used`` and
``sentences_split``.

A trailing "Sources:" / "References:" list is removed whole, not entry by entry: the API renders the
citations itself from the chunks (``citations`` in the answer object), so a model-written list could only
repeat them or name sources that were never given. Markers in the removed list that name no source are
still reported.
"""

from __future__ import annotations

import re

from verification.layers.types import CitationCleanup

# "[n]" but not a markdown link "[n](url)".
CITATION_MARKER_RE = re.compile(r"\[(\d{1,4})\](?!\()")
_MARKER_LIST_PART = r"\d{1,4}(?:\s*[-\u2013\u2014]\s*\d{1,4})?"
_MARKER_LIST_SEP = r"\s*(?:,|;|&|\band\b)\s*"
_MARKER_LIST_SEP_RE = re.compile(_MARKER_LIST_SEP, re.IGNORECASE)
_MARKER_LIST_WORD_RE = re.compile(r"sources?|docs?", re.IGNORECASE)
_RANGE_DASH_RE = re.compile(r"\s*[-\u2013\u2014]\s*")
_DIGITS_RE = re.compile(r"\d+")
_LISTED_MARKER_RE = re.compile(r"\[\^?(\d{1,4})\]")
# "[1, 2]", "[1-3]", "[1; 3-4]" (and plain "[1]"): a bracketed list of numbers and ranges.
_BRACKET_LIST_RE = re.compile(
    rf"\[((?:{_MARKER_LIST_PART})(?:{_MARKER_LIST_SEP}{_MARKER_LIST_PART})*)\](?!\()"
)
# "(Source 1)", "[Sources 1 and 3]", "(source: 2)", "[Doc 4]", "(Context 1-2)".
_NAMED_LIST_RE = re.compile(
    rf"[\[(]\s*(?:sources?|src|refs?|references?|docs?|documents?|context|citations?|chunks?)\s*[:#]?\s*"
    rf"((?:{_MARKER_LIST_PART})(?:{_MARKER_LIST_SEP}(?:(?:sources?|docs?)\s*)?{_MARKER_LIST_PART})*)\s*[\])]",
    re.IGNORECASE,
)
_FOOTNOTE_RE = re.compile(r"\[\^(\d{1,4})\](?!:)")
# Footnote and reference-link definitions, "[^1]: ..." or "[1]: https://...", are source lists too.
_DEFINITION_LINE_RE = re.compile(r"^[ \t]*\[\^?\d{1,4}\]:.*(?:\n|$)", re.MULTILINE)
_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
_SUPERSCRIPT_SEP = "[,\u02d2\u00b7]"
_SUPERSCRIPT_RE = re.compile(rf"[{_SUPERSCRIPTS}]+(?:{_SUPERSCRIPT_SEP}[{_SUPERSCRIPTS}]+)*")
_SUPERSCRIPT_SEP_RE = re.compile(_SUPERSCRIPT_SEP)
_SUPERSCRIPT_DIGITS = str.maketrans(_SUPERSCRIPTS, "0123456789")
# A superscript after these is an exponent ("39 cm²"), not a citation: scar ratings use areas.
_UNIT_WORDS = frozenset({"cm", "mm", "m", "km", "in", "ft", "yd", "sq", "inch", "inches"})
_WORD_BEFORE_RE = re.compile(r"([A-Za-z]+)\.?$")
# A range wider than this is not a citation list (retrieval keeps K = 7 sources); its ends are kept as two
# markers, and dropped if out of range.
_MAX_RANGE = 20

_SOURCES_HEADING_RE = re.compile(
    r"[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[ \t]*"
    r"(?:sources?(?:[ \t]+used)?|references?|citations?|works[ \t]+cited|bibliography)"
    r"[ \t]*(?:\*\*|__)?[ \t]*:?[ \t]*(?:\*\*|__)?[ \t]*(?P<rest>.*)",
    re.IGNORECASE,
)
_LIST_LINE_RE = re.compile(
    r"^[ \t]*(?:[-*\u2022+]|\d{1,3}[.)]|\[\^?\d{1,4}\]|\(\d{1,4}\)|https?://|www\.|sources?\b)",
    re.IGNORECASE,
)
# What may follow "Sources:" on its own line: nothing, or the start of a list.
_LIST_REST_RE = re.compile(r"$|\[\^?\d{1,4}\]|https?://|www\.|\d{1,3}[.)]?(?:\s|$)", re.IGNORECASE)

# A run of adjacent markers, "[3] [1][3]", is written once each, ascending: "[1][3]".
_MARKER_RUN_RE = re.compile(r"\[\d{1,4}\](?!\()(?:[ \t]*\[\d{1,4}\](?!\())*")
# "10%[1]" reads as "10% [1]".
_MARKER_GLUED_RE = re.compile(r"(?<=[\w%.,;:!?)\u201d\u2019\"'])(?=\[\d{1,4}\](?!\())")
# "10% [1] ." → "10% [1]."; but "| ?% |" and " ![image](...)" keep their space.
_SPACE_BEFORE_PUNCTUATION_RE = re.compile(r"[ \t]+([.,;:!?])(?=\s|$|[\"')\]\u201d\u2019*_])")
_EMPTY_BRACKETS_RE = re.compile(r"[ \t]*(?:\(\s*\)|\[\s*\])")
_INNER_SPACES_RE = re.compile(r"(?<=\S)[ \t]{2,}")
_TRAILING_SPACES_RE = re.compile(r"[ \t]+$", re.MULTILINE)
_BLANK_LINES_RE = re.compile(r"\n{3,}")

# Sentence splitting, shared by L3, L4 and L5. Markers after a full stop ("10%. [1]") belong to that sentence.
_SENTENCE_END_RE = re.compile(r"[.!?]+[\"'\u201d\u2019)]*(?:[ \t]*\[\d{1,4}\](?!\())*[ \t]+")
_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "etc", "vs", "u.s", "u.s.c", "c.f.r", "cfr", "no", "nos", "sec", "secs", "dr", "mr", "mrs",
     "ms", "st", "jr", "sr", "approx", "fig", "pub", "vol", "pt", "art", "ch", "para", "jan", "feb", "mar",
     "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "p.l", "a.m", "p.m"}
)
_LAST_TOKEN_RE = re.compile(r"(\S+)$")


def citations_used(text: str) -> tuple[int, ...]:
    """Return the distinct source numbers cited as ``[n]`` in ``text``, ascending."""
    return tuple(sorted({int(number) for number in CITATION_MARKER_RE.findall(text)}))


def sentences_split(text: str) -> tuple[str, ...]:
    """Split ``text`` into sentences, each with its trailing whitespace, so that ``"".join()`` gives it back.

    Every line break ends a sentence (list items and headings are claims of their own); within a line a
    sentence ends at ``.``, ``!`` or ``?`` followed by a space, unless it ends a known abbreviation or an
    initial, or the next word starts in lower case. Whitespace-only pieces are possible; callers skip them.
    """
    pieces: list[str] = []
    for line in text.splitlines(keepends=True):
        if not line.strip() and pieces:
            pieces[-1] += line
            continue
        start = 0
        for match in _SENTENCE_END_RE.finditer(line):
            following = line[match.end() :]
            if not following.strip():
                continue
            if following[:1].islower():
                continue
            if match.group().startswith("."):
                token = _LAST_TOKEN_RE.search(line[start : match.start()])
                word = token.group(1).lower().lstrip("(\"'") if token else ""
                if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
                    continue
            pieces.append(line[start : match.end()])
            start = match.end()
        pieces.append(line[start:])
    return tuple(piece for piece in pieces if piece)


def _numbers_parse(listed: str) -> list[int]:
    numbers: list[int] = []
    for part in _MARKER_LIST_SEP_RE.split(listed):
        part = _MARKER_LIST_WORD_RE.sub("", part).strip()
        if not part:
            continue
        ends = [int(end) for end in _RANGE_DASH_RE.split(part) if end]
        if len(ends) == 2 and 0 <= ends[1] - ends[0] <= _MAX_RANGE:
            numbers.extend(range(ends[0], ends[1] + 1))
        else:
            numbers.extend(ends)
    return numbers


def _markers(numbers: list[int]) -> str:
    return "".join(f"[{number}]" for number in numbers)


def _superscript_replace(match: re.Match[str], *, source_count: int) -> str:
    before = _WORD_BEFORE_RE.search(match.string[: match.start()])
    if before and before.group(1).lower() in _UNIT_WORDS:
        return match.group()
    numbers: list[int] = []
    for run in _SUPERSCRIPT_SEP_RE.split(match.group()):
        value = run.translate(_SUPERSCRIPT_DIGITS)
        # "¹²" with fewer than 12 sources means sources 1 and 2.
        if len(value) > 1 and int(value) > source_count:
            numbers.extend(int(digit) for digit in value)
        else:
            numbers.append(int(value))
    return _markers(numbers)


def _sources_list_remove(text: str) -> tuple[str, list[str]]:
    """Remove the first sources list (a heading and the list-like lines under it); return what was removed."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        heading = _SOURCES_HEADING_RE.fullmatch(line)
        if heading is None or not _LIST_REST_RE.match(heading.group("rest")):
            continue
        last = index
        for following in range(index + 1, len(lines)):
            if not lines[following].strip():
                continue
            if not _LIST_LINE_RE.match(lines[following]):
                break
            last = following
        ends_text = not "\n".join(lines[index + 1 :]).strip()
        if last == index and not heading.group("rest").strip() and not ends_text:
            continue  # a bare "Sources:" with prose under it is not a list
        removed = "\n".join(lines[index : last + 1])
        return "\n".join(lines[:index] + lines[last + 1 :]), [removed]
    return text, []


def citations_cleanup(*, answer: str, source_count: int) -> CitationCleanup:
    """Return ``answer`` with every citation as ``[n]``, 1 ≤ n ≤ ``source_count``, and the markers dropped."""
    text = answer.replace("\r\n", "\n")
    text, removed_lists = _sources_list_remove(text)
    definitions = _DEFINITION_LINE_RE.findall(text)
    if definitions:
        removed_lists.extend(definitions)
        text = _DEFINITION_LINE_RE.sub("", text)

    text = _FOOTNOTE_RE.sub(lambda match: f"[{match.group(1)}]", text)
    text = _NAMED_LIST_RE.sub(lambda match: _markers(_numbers_parse(match.group(1))), text)
    text = _BRACKET_LIST_RE.sub(lambda match: _markers(_numbers_parse(match.group(1))), text)
    text = _SUPERSCRIPT_RE.sub(lambda match: _superscript_replace(match, source_count=source_count), text)

    removed: list[str] = []

    def _in_range(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if 1 <= number <= source_count:
            return match.group()
        marker = f"[{number}]"
        if marker not in removed:
            removed.append(marker)
        return ""

    text = CITATION_MARKER_RE.sub(_in_range, text)
    for listed in removed_lists:
        normalised = _BRACKET_LIST_RE.sub(lambda match: _markers(_numbers_parse(match.group(1))), listed)
        for number in (int(found) for found in _LISTED_MARKER_RE.findall(normalised)):
            if not 1 <= number <= source_count and f"[{number}]" not in removed:
                removed.append(f"[{number}]")

    text = _MARKER_RUN_RE.sub(lambda match: _markers(sorted({int(n) for n in _DIGITS_RE.findall(match.group())})), text)
    text = _MARKER_GLUED_RE.sub(" ", text)
    return CitationCleanup(text=text_tidy(text), removed_citations=tuple(removed))


def removal_gap(*, before: str, sentence: str) -> str:
    """Return what stays of a removed sentence: the line breaks it ended with, less the one it started on.

    ``before`` is the text kept so far. A removed list item ("- ... [1]\\n") leaves nothing; a removed
    sentence in mid-line that ended its line leaves the line break.
    """
    breaks = sentence[len(sentence.rstrip()) :].count("\n")
    if not before or before.endswith("\n"):
        breaks = max(0, breaks - 1)
    return "\n" * breaks


def text_tidy(text: str) -> str:
    """Tidy the spaces a removal leaves: before punctuation, doubled, trailing, empty brackets."""
    text = _EMPTY_BRACKETS_RE.sub("", text)
    text = _SPACE_BEFORE_PUNCTUATION_RE.sub(r"\1", text)
    text = _INNER_SPACES_RE.sub(" ", text)
    text = _TRAILING_SPACES_RE.sub("", text)
    text = _BLANK_LINES_RE.sub("\n\n", text)
    return text.strip()
