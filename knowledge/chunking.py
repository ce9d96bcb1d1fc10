"""Split documents into retrieval chunks on paragraph boundaries, keeping tables readable piece by piece.

A document becomes a list of units — paragraphs, or the lines/sentences/words of a paragraph too long to
keep whole, or table pieces — and units are packed greedily into chunks of at most `max_chars`, each new
chunk starting with the last unit(s) of the previous one when they fit. Whitespace may be normalised but
no word of the input is ever dropped.

Tables are runs of row lines ("cell | cell", markdown "| a | b |", or tab-separated). A table too long for
one chunk is cut between rows, and every piece repeats the table's heading: the caption line before the rows
("[Table] The Knee and Leg" in the flattened 38 CFR text, or a short heading paragraph on VA.gov pages) and
the header row(s).
"""

import re
from dataclasses import dataclass

__all__ = ["record_split", "text_chunk"]

# Headings and captions are short; a longer line before a table is prose, not its caption.
HEADING_LINE_MAX_CHARS = 200
# A repeated heading may use at most half a chunk, so every piece still carries rows.
HEADING_SHARE = 0.5
# A markdown cell may wrap over a few lines (the VA.gov school tables do); join at most this many.
MARKDOWN_ROW_MAX_LINES = 20

_BLANK_LINE_RE = re.compile(r"\n[ \t\f\v]*\n")
_ROW_RE = re.compile(r" \| |^\|.*\|$|^\| | \|$|\S\t+\S")
_MARKDOWN_SEPARATOR_RE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")
_TABLE_CAPTION_RE = re.compile(r"^\[Table\]", re.IGNORECASE)
_MARKDOWN_HEADING_RE = re.compile(r"^#{1,6}\s+\S")
_LIST_ITEM_RE = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")
_DIGIT_RE = re.compile(r"\d")
# A rating level written as "70% — criteria" or "70 percent: criteria".
_PERCENT_LEAD_RE = re.compile(r"^\d{1,3}\s?(?:%|percent\b)")
# A 38 CFR row that opens a diagnostic code ("5000 Osteomyelitis, acute, subacute, or chronic: |").
_CODE_ROW_RE = re.compile(r"^\s*\d{4}\s")
# A sentence ends at . ! or ? (plus closing quotes/brackets) followed by space and a capital, digit or quote.
_SENTENCE_END_RE = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?=\s+[\"'\u201c\u2018(\[]?[A-Z0-9])")
# Inside an overlong sentence, cut at ; and : and after <br> (a line break in the vbkb tables) before words.
_CLAUSE_END_RE = re.compile(r"(?<=[.!?;:])\s+|(?:(?<=<br>)|(?<=<br/>)|(?<=<br />))\s*", re.IGNORECASE)
_ABBREVIATION_RE = re.compile(
    r"(?:\b(?:[A-Za-z]\.)*[A-Za-z]|\b(?:e\.g|i\.e|etc|vs|cf|al|approx|No|Nos|Mr|Mrs|Ms|Dr|Jr|Sr|St|Sec|Secs"
    r"|Pub|Stat|Fed|Reg|Pt|Ch|Vol|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|pct|Inc|Co|Corp|U\.S))$"
)


@dataclass(frozen=True, slots=True)
class _Unit:
    text: str
    sep: str  # what joins this unit to the one before it in a chunk


@dataclass(frozen=True, slots=True)
class _Segment:
    kind: str  # "text" | "table"
    lines: tuple[str, ...]
    block: int


@dataclass(frozen=True, slots=True)
class _TableContext:
    """A 38 CFR table's caption and header rows, repeated for its later runs (after subheadings or notes)."""

    caption: str
    header: tuple[str, ...]
    block: int


def text_chunk(*, text: str, title: str = "", max_chars: int = 1000, overlap_paragraphs: int = 1) -> list[str]:
    """Split `text` into chunks of at most `max_chars` characters.

    `title` is the document title; it is not added to chunks (callers store it with them) but serves as the
    heading of table pieces that have no caption or section heading of their own.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    if overlap_paragraphs < 0:
        raise ValueError("overlap_paragraphs must not be negative")
    units = _units_build(text=text, title=title, max_chars=max_chars)
    return _units_pack(units=units, max_chars=max_chars, overlap=overlap_paragraphs)


def record_split(*, content: str, max_chars: int) -> list[str]:
    """Split one overlong record (a whitepaper-schema chunk) by the rules of `text_chunk`."""
    if len(content) <= max_chars:
        return [content]
    return text_chunk(text=content, max_chars=max_chars)



def units_split(*, text: str) -> list[str]:
    """Return the chunk's answer units: each table row or list item whole, prose sentence by sentence.

    A rating row keeps its percentage and its criteria together, so an extractive answer never separates them.
    """
    units: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if _is_row(line) or _LIST_ITEM_RE.match(line) or _PERCENT_LEAD_RE.match(stripped):
            units.append(stripped)
        else:
            units.extend(s.strip() for s in _sentences(stripped) if s.strip())
    return units


# --- segmentation -----------------------------------------------------------------------------------------


def _is_row(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and stripped != "|" and bool(_ROW_RE.search(stripped) or _ROW_RE.search(line))


def _logical_lines(block: str) -> list[str]:
    """Return the block's non-blank lines, right-stripped, with wrapped markdown rows joined into one line each.

    A markdown table's separator row gives its column count; a row is complete when it has all its cells.
    """
    lines = [line.rstrip() for line in block.split("\n")]
    joined: list[str] = []
    columns = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        # Only a markdown row starts at the margin with "|"; 38 CFR's " | Rating" header is indented.
        if not line.startswith("|"):
            columns = 0
            joined.append(line)
            i += 1
            continue
        if _MARKDOWN_SEPARATOR_RE.match(line):
            columns = line.strip("|").count("|") + 1
            joined.append(line)
            i += 1
            continue
        end = _row_end(lines, i, columns=columns)
        joined.append("\n".join(part.strip() for part in lines[i : end + 1]) if end > i else line)
        i = end + 1
    return [line for line in joined if line.strip()]


def _row_end(lines: list[str], start: int, *, columns: int) -> int:
    """Return the index of the last line of the markdown row starting at lines[start]."""
    pipes = 0
    for j in range(start, min(start + MARKDOWN_ROW_MAX_LINES, len(lines))):
        if j > start and lines[j].startswith("|") and (not columns or pipes >= columns + 1):
            break
        pipes += lines[j].count("|")
        complete = pipes >= columns + 1 if columns else True
        if complete and lines[j].endswith("|"):
            return j
    return start


def _blocks(text: str) -> list[str]:
    """Split on blank lines, except inside a markdown row (some VA.gov cells contain a blank line)."""
    blocks: list[str] = []
    for block in _BLANK_LINE_RE.split(text.replace("\r\n", "\n").replace("\r", "\n")):
        if blocks and _ends_in_open_row(blocks[-1].split("\n")):
            blocks[-1] = f"{blocks[-1]}\n{block}"
        else:
            blocks.append(block)
    return blocks


def _ends_in_open_row(lines: list[str]) -> bool:
    starts = [i for i, line in enumerate(lines) if line.startswith("|")]
    if not starts or len(lines) - starts[-1] > MARKDOWN_ROW_MAX_LINES:
        return False
    last = starts[-1]
    separators = [i for i in starts if _MARKDOWN_SEPARATOR_RE.match(lines[i].rstrip())]
    if not separators or separators[-1] == last:
        return False
    columns = lines[separators[-1]].rstrip().strip("|").count("|") + 1
    return sum(line.count("|") for line in lines[last:]) < columns + 1


def _segments(text: str) -> list[_Segment]:
    segments: list[_Segment] = []
    for block_index, block in enumerate(_blocks(text)):
        current: list[str] = []
        current_kind = ""
        for line in _logical_lines(block):
            kind = "table" if _is_row(line) else "text"
            if current and kind != current_kind:
                segments.append(_Segment(kind=current_kind, lines=tuple(current), block=block_index))
                current = []
            current_kind = kind
            current.append(line)
        if current:
            segments.append(_Segment(kind=current_kind, lines=tuple(current), block=block_index))
    return segments


def _is_caption(line: str) -> bool:
    return len(line.strip()) <= HEADING_LINE_MAX_CHARS and not _is_row(line)


def _caption_consumed(previous: _Segment | None, table: _Segment) -> bool:
    """Whether the table takes the last line of the text segment before it as its caption."""
    if previous is None or previous.kind != "text" or not _is_caption(previous.lines[-1]):
        return False
    if previous.block == table.block:
        return True
    # Across a blank line only a heading-like last line counts (VA.gov: "Alaska", "What are the amounts?"),
    # not a list item or the end of a prose paragraph.
    last = previous.lines[-1].strip()
    return not _LIST_ITEM_RE.match(last) and (len(previous.lines) == 1 or not last.endswith("."))


def _is_cfr_header(row: str) -> bool:
    """Whether a row is a 38 CFR column header with an empty first cell (" | Rating")."""
    return not row.startswith("|") and row.lstrip().startswith("|")


def _header_rows(rows: tuple[str, ...], *, table_start: bool = False) -> int:
    """Count the rows at the top of a table that are its header.

    Outside a 38 CFR "[Table]" at least one data row must remain; at its start the header may be all there
    is before a subheading.
    """
    spare = 0 if table_start else 1
    if len(rows) < 1 + spare:
        return 0
    if len(rows) > 1 and _MARKDOWN_SEPARATOR_RE.match(rows[1].strip()):
        return 2 if len(rows) > 1 + spare else 0
    # 38 CFR " | Rating" over "Major | Minor": a grouped header spans two rows.
    if (
        _is_cfr_header(rows[0])
        and len(rows) > 1 + spare
        and not _DIGIT_RE.search(rows[1])
        and len(rows[1]) <= HEADING_LINE_MAX_CHARS
    ):
        return 2
    # A row that opens a diagnostic code is data, not a header.
    if len(rows[0]) > HEADING_LINE_MAX_CHARS or _CODE_ROW_RE.match(rows[0]):
        return 0
    return 1 if len(rows) > spare else 0


# --- units ------------------------------------------------------------------------------------------------


def _units_build(*, text: str, title: str, max_chars: int) -> list[_Unit]:
    segments = _segments(text)
    units: list[_Unit] = []
    section_heading = ""
    context: _TableContext | None = None
    # A 38 CFR caption and header with no rows of their own yet (a subheading follows): the next run of the
    # table takes them, so the header is not stranded in a chunk of its own.
    pending: list[str] = []
    pending_sep = ""

    def flush() -> None:
        if pending:
            units.extend(_text_units(lines=pending, sep=pending_sep, max_chars=max_chars))
            pending.clear()

    previous_block = -1
    for index, segment in enumerate(segments):
        sep = "\n" if segment.block == previous_block else "\n\n"
        previous_block = segment.block
        if context is not None and context.block != segment.block:
            context = None
            flush()
        following = segments[index + 1] if index + 1 < len(segments) else None
        if segment.kind == "text":
            lines = list(segment.lines)
            if following is not None and following.kind == "table" and _caption_consumed(segment, following):
                lines.pop()
            for line in segment.lines:
                if _MARKDOWN_HEADING_RE.match(line) and len(line) <= HEADING_LINE_MAX_CHARS:
                    section_heading = line.strip()
            if lines:
                flush()
                units.extend(_text_units(lines=lines, sep=sep, max_chars=max_chars))
            continue

        previous = segments[index - 1] if index else None
        caption = previous.lines[-1].strip() if _caption_consumed(previous, segment) else ""
        rows = segment.lines
        if (caption and _TABLE_CAPTION_RE.match(caption)) or (context is None and _is_cfr_header(rows[0])):
            flush()
            header_count = _header_rows(rows, table_start=True)
            context = _TableContext(caption=caption or title.strip(), header=rows[:header_count], block=segment.block)
            repeated = [] if caption or not context.caption else [context.caption]
            own = ([caption] if caption else []) + list(rows[:header_count])
            data = rows[header_count:]
            if not data:
                pending[:] = repeated + own
                pending_sep = sep
                continue
        elif context is not None:
            # A later run of the same 38 CFR table, perhaps under a subheading ("I. Multiple Digits: ...").
            repeated = [line for line in (context.caption, *context.header) if line]
            own = [caption] if caption else []
            if pending:
                own, repeated, sep = [*pending, *own], [], pending_sep
                pending.clear()
            data = rows
        else:
            header_count = _header_rows(rows)
            fallback = section_heading or title.strip()
            repeated = [fallback] if fallback and not caption and len(fallback) <= HEADING_LINE_MAX_CHARS else []
            own = ([caption] if caption else []) + list(rows[:header_count])
            data = rows[header_count:]
        units.extend(_table_units(repeated=repeated, own=own, data=list(data), sep=sep, max_chars=max_chars))
    flush()
    return units


def _text_units(*, lines: list[str], sep: str, max_chars: int) -> list[_Unit]:
    """Keep a paragraph whole when it fits; otherwise cut it by lines, then sentences, then words."""
    paragraph = "\n".join(lines)
    if len(paragraph) <= max_chars:
        return [_Unit(text=paragraph, sep=sep)]
    pieces = _multiline_pieces(paragraph, max_chars=max_chars)
    return [_Unit(text=piece, sep=sep if i == 0 else piece_sep) for i, (piece, piece_sep) in enumerate(pieces)]


def _multiline_pieces(text: str, *, max_chars: int) -> list[tuple[str, str]]:
    """Cut text into (piece, separator-before) pairs of at most max_chars: lines first, then _line_pieces."""
    pieces: list[tuple[str, str]] = []
    for line in text.split("\n"):
        if line.strip():
            line_pieces = _line_pieces(line.strip(), max_chars=max_chars)
            pieces.append((line_pieces[0][0], "\n"))
            pieces.extend(line_pieces[1:])
    return pieces


def _line_pieces(line: str, *, max_chars: int) -> list[tuple[str, str]]:
    """Cut one line into pieces of at most max_chars: sentences, clauses, words, then characters."""
    if len(line) <= max_chars:
        return [(line, " ")]
    pieces: list[tuple[str, str]] = []
    for sentence in _sentences(line):
        if len(sentence) <= max_chars:
            pieces.append((sentence, " "))
            continue
        for clause in filter(None, (c.strip() for c in _CLAUSE_END_RE.split(sentence))):
            if len(clause) <= max_chars:
                pieces.append((clause, " "))
                continue
            pieces.extend(_word_pieces(clause, max_chars=max_chars))
    return pieces


def _word_pieces(text: str, *, max_chars: int) -> list[tuple[str, str]]:
    pieces: list[tuple[str, str]] = []
    for word in text.split():
        if len(word) <= max_chars:
            pieces.append((word, " "))
            continue
        # A single "word" longer than a chunk (a long URL): cut it, joining the parts without a space.
        for offset in range(0, len(word), max_chars):
            pieces.append((word[offset : offset + max_chars], " " if offset == 0 else ""))
    return pieces


def _sentences(text: str) -> list[str]:
    sentences: list[str] = []
    start = 0
    for m in _SENTENCE_END_RE.finditer(text):
        before = text[start : m.start()]
        if m.group()[0] == "." and _ABBREVIATION_RE.search(before):
            continue
        sentences.append(text[start : m.end()].strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return _numbered_items_joined([s for s in sentences if s])


_ITEM_NUMBER_RE = re.compile(r"(?:^|(?<=[:;]\s))(\d{1,2}[.)])$")


def _numbered_items_joined(sentences: list[str]) -> list[str]:
    """Keep an inline numbered step whole: "The steps: 1. File a notice. 2. Wait." splits after each period,
    leaving "1." at the end of the lead and "2." alone; each number goes back to the step it begins."""
    joined: list[str] = []
    carried = ""
    for sentence in sentences:
        sentence = f"{carried} {sentence}".strip() if carried else sentence
        carried = ""
        number = _ITEM_NUMBER_RE.search(sentence)
        if number:
            carried = number.group(1)
            sentence = sentence[: number.start()].rstrip()
        if sentence:
            joined.append(sentence)
    if carried:
        joined.append(carried)
    return joined


def _table_units(*, repeated: list[str], own: list[str], data: list[str], sep: str, max_chars: int) -> list[_Unit]:
    """Cut a table run into pieces of whole rows, each starting with the heading lines."""
    if not data:
        return _text_units(lines=own, sep=sep, max_chars=max_chars) if own else []
    budget = int(max_chars * HEADING_SHARE)
    units: list[_Unit] = []
    header_only = [line for line in own if _is_row(line)]
    candidates = (repeated + own, own, header_only, repeated, [])
    heading_lines = next(c for c in candidates if len("\n".join(c)) <= budget)
    # Caption or header lines that do not fit the repeated heading are input text: keep all of them once,
    # in order, before the pieces.
    if any(line not in heading_lines for line in own):
        units.extend(_text_units(lines=own, sep=sep, max_chars=max_chars))
        sep = "\n"
    heading = "\n".join(heading_lines)
    available = max_chars - (len(heading) + 1 if heading else 0)

    rows: list[str] = []
    for row in data:
        if len(row) <= available:
            rows.append(row)
        else:
            rows.extend(_pack_pieces(_multiline_pieces(row, max_chars=available), max_chars=available))

    pieces: list[tuple[str, list[str]]] = []
    code_row = ""
    for row in rows:
        if pieces and len(_table_piece(pieces[-1][0], [*pieces[-1][1], row])) <= max_chars:
            pieces[-1][1].append(row)
        else:
            pieces.append((_piece_heading(heading, code_row, row, budget=budget, max_chars=max_chars), [row]))
        if _CODE_ROW_RE.match(row) and len(row) <= HEADING_LINE_MAX_CHARS:
            code_row = row
    for piece_heading, piece_rows in pieces:
        units.append(_Unit(text=_table_piece(piece_heading, piece_rows), sep=sep))
        sep = "\n"
    return units


def _piece_heading(heading: str, code_row: str, first_row: str, *, budget: int, max_chars: int) -> str:
    """Add the open diagnostic code's row to a piece that starts among that code's criteria, when it fits."""
    if not code_row or _CODE_ROW_RE.match(first_row):
        return heading
    extended = f"{heading}\n{code_row}" if heading else code_row
    if len(extended) <= budget and len(extended) + 1 + len(first_row) <= max_chars:
        return extended
    return heading


def _table_piece(heading: str, rows: list[str]) -> str:
    body = "\n".join(rows)
    return f"{heading}\n{body}" if heading else body


def _pack_pieces(pieces: list[tuple[str, str]], *, max_chars: int) -> list[str]:
    """Rejoin the sentence/word pieces of one overlong row into as few parts as fit."""
    packed: list[str] = []
    current = ""
    for piece, sep in pieces:
        if current and len(current) + len(sep) + len(piece) <= max_chars:
            current += sep + piece
        else:
            if current:
                packed.append(current)
            current = piece
    if current:
        packed.append(current)
    return packed


# --- packing ----------------------------------------------------------------------------------------------


def _joined_length(units: list[_Unit]) -> int:
    return sum(len(u.text) for u in units) + sum(len(u.sep) for u in units[1:])


def _render(units: list[_Unit]) -> str:
    parts = [units[0].text]
    for unit in units[1:]:
        parts.append(unit.sep + unit.text)
    return "".join(parts)


def _units_pack(*, units: list[_Unit], max_chars: int, overlap: int) -> list[str]:
    """Pack units greedily; start each new chunk with up to `overlap` trailing units of the previous one.

    Every iteration adds one new unit, so the loop ends; overlap units are dropped (oldest first) until the
    new chunk fits, so overlap never pushes a chunk past max_chars.
    """
    chunks: list[str] = []
    current: list[_Unit] = []
    for unit in units:
        if current and _joined_length([*current, unit]) <= max_chars:
            current.append(unit)
            continue
        if current:
            chunks.append(_render(current))
            carried = current[-overlap:] if overlap else []
            while carried and _joined_length([*carried, unit]) > max_chars:
                carried.pop(0)
            current = [*carried, unit]
        else:
            current = [unit]
    if current:
        chunks.append(_render(current))
    return chunks
