"""The offline generator: cited sentences and table rows chosen from the retrieved chunks.

Nothing is written that a source does not say: every line of the answer is a sentence or table row of a
cited chunk, chosen by similarity to the question with diversity (maximal marginal relevance), kept in the
order the sources give them. Sentence vectors are made once at ingestion (a MiniLM pass costs ~6 ms a
sentence here), so answering needs only dot products.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from knowledge.patterns import dc_codes_find, va_forms_find
from verification.generators.base import Generation, GenerationContext
from verification.layers.citations import content_words
from verification.layers.types import SourceChunk

MODEL_NAME = "extractive"
# Selection sizes: a phone screen's worth of answer. Four prose units read as a paragraph; a rating table
# keeps up to eight levels so every percentage stays next to its criteria.
MAX_TABLE_ROWS = 8
MAX_CHARS = 1100
# The leading source gives up to PRIMARY_UNITS sentences scoring at least PRIMARY_FLOOR of the best; up to
# EXTRA_SOURCES other sources add their best sentence when it scores at least EXTRA_FLOOR of the best and
# is not a near-copy (cosine above REDUNDANT_ABOVE) of one already chosen. Tuned on the golden set.
PRIMARY_UNITS = 4
# When the rating table comes from another source, the leading source keeps this many sentences beside it.
TABLE_BESIDE_UNITS = 2
PRIMARY_FLOOR = 0.6
EXTRA_SOURCES = 2
EXTRA_FLOOR = 0.75
REDUNDANT_ABOVE = 0.9
# Weights of the unit score: meaning first, then the question's own words, codes and forms, how well the
# whole chunk matched (its retrieval score and the question's words in its title), and a figure when the
# question asks for one. Tuned on the golden set (W_TITLE 0, 0.1, 0.25, 0.4 gave answered-correctly 0.871,
# 0.871, 0.885, 0.885).
W_SIM, W_LEX, W_ENTITY, W_CHUNK, W_TITLE, W_NUMBER = 0.55, 0.25, 0.25, 1.0, 0.25, 0.1
# Answer from the best few sources only: lower-ranked chunks add noise more often than facts.
MAX_SOURCE_CHUNKS = 3

# A table row: a rating level ("10% — recurrent tinnitus") or a short label and its value ("Basic monthly
# rate — $1,699.36", "First use, less than 5% down — 2.15%", "Level 0 — no complaints").
_ROW_RE = re.compile(r"^\s*(?:[-•*]\s*)?(?:\d{1,3}\s?%|[^.!?\n]{1,60}? — )")
_END_PUNCT_RE = re.compile(r"[.!?;:]+[\"')\]]*$")
_DIGIT_RE = re.compile(r"\d")
# "%" is not a word character, so it stands outside the word-bounded group ("what % is that").
_QUANTITY_QUESTION_RE = re.compile(r"\b(how (much|many|long|soon|early|late)|when|what (percent|rate|amount|date)|"
                                   r"deadline|percent|rate|rating|amount|limit|cap|cost|pay)\b|%", re.IGNORECASE)
# A question for the levels themselves ("what does VA rate CFS at", "what percent"); with "how much" it is a
# rating question, which gets the leading source's table, but only a levels question borrows another's.
_LEVELS_WORDS = r"rat(?:e|ed|es|ing|ings)|percent|criteria|what level|evaluat\w*"
_LEVELS_QUESTION_RE = re.compile(rf"\b(?:{_LEVELS_WORDS})\b|%", re.IGNORECASE)
_RATING_QUESTION_RE = re.compile(rf"\b(?:{_LEVELS_WORDS}|how much)\b|%", re.IGNORECASE)


@dataclass(frozen=True)
class Unit:
    chunk_number: int
    position: int
    text: str
    vector: np.ndarray


def extractive_generate(
    *,
    question: str,
    question_vector: np.ndarray,
    chunks: Sequence[SourceChunk],
    units: Mapping[int, Sequence[tuple[str, np.ndarray]]],
    chunk_types: Mapping[int, str] | None = None,
    codes: Sequence[str] = (),
) -> Generation:
    """Return a cited answer built from the chunks' own sentences; empty text when nothing fits.

    ``codes`` are diagnostic codes and form numbers the question refers to without writing them (a condition
    named in the schedule's words); those it writes are found in it here.

    The source holding the best-matching unit leads: its relevant sentences (or its rating table, for a
    rating question) come first, in its own order; the best sentence of the next sources follows when it
    adds something new.
    """
    chunk_types = chunk_types or {}
    q_words = content_words(question)
    q_entities = set(dc_codes_find(question)) | set(va_forms_find(question)) | set(codes)
    wants_number = bool(_QUANTITY_QUESTION_RE.search(question))
    by_chunk: dict[int, list[tuple[float, Unit]]] = {}
    # The sources that name a code or form the question names come first, then the closest in meaning.
    def named(c: SourceChunk) -> bool:
        return bool(q_entities & _codes_in(f"{c.title}\n{c.content}"))

    for chunk in sorted(chunks, key=lambda c: (not named(c), -c.score))[:MAX_SOURCE_CHUNKS]:
        # A title names what the whole chunk is about ("Knee limitation of flexion (bending)").
        title_match = len(q_words & content_words(chunk.title)) / len(q_words) if q_words else 0.0
        chunk_match = W_CHUNK * chunk.score + W_TITLE * title_match
        scored = []
        for position, (text, vector) in enumerate(units.get(chunk.chunk_id, ())):
            unit = Unit(chunk.number, position, text, np.asarray(vector, dtype=np.float32))
            scored.append((_unit_score(unit, question_vector, q_words, q_entities, chunk_match, wants_number), unit))
        if scored:
            by_chunk[chunk.number] = scored
    if not by_chunk:
        return Generation(text="", model=MODEL_NAME)
    best_score, best_unit = max((c for scored in by_chunk.values() for c in scored), key=lambda c: c[0])
    primary = by_chunk[best_unit.chunk_number]
    chunk_of = {c.number: c for c in chunks}

    chosen = _rating_rows(question, chunk_of[best_unit.chunk_number], primary, chunk_types)
    if not chosen:
        floor = PRIMARY_FLOOR * best_score
        chosen = [u for s, u in sorted(primary, key=lambda c: -c[0]) if s >= floor][:PRIMARY_UNITS]
        # A rating question whose best source explains without the table ("diagnosis of CFS") gets the
        # table of the next best source that has one: the levels are what was asked.
        table = _borrowed_table(question, by_chunk, chunk_of, chunk_types, besides=best_unit.chunk_number)
        if table:
            room = MAX_CHARS - sum(len(u.text) for u in table)
            beside = []
            for unit in chosen[:TABLE_BESIDE_UNITS]:
                if len(unit.text) <= room:
                    beside.append(unit)
                    room -= len(unit.text)
            chosen = beside + table
    total = sum(len(u.text) for u in chosen)
    others = sorted(((s, u) for n, scored in by_chunk.items() if n != best_unit.chunk_number for s, u in scored),
                    key=lambda c: -c[0])
    used_chunks = {best_unit.chunk_number}
    for score, unit in others:
        if len(used_chunks) > EXTRA_SOURCES or score < EXTRA_FLOOR * best_score:
            break
        if unit.chunk_number in used_chunks or total + len(unit.text) > MAX_CHARS:
            continue
        if _ROW_RE.match(unit.text):
            continue  # a level torn from its table ("60% — fixed in flexion") would read as this answer's
        if q_entities and not named(chunk_of[unit.chunk_number]):
            continue  # "what is DC 7522": another source's words on diagnostic codes in general are noise
        if max(float(unit.vector @ c.vector) for c in chosen) > REDUNDANT_ABOVE:
            continue  # overlapping chunks repeat paragraphs: say each thing once
        chosen.append(unit)
        used_chunks.add(unit.chunk_number)
        total += len(unit.text)

    order = {n: i for i, n in enumerate(dict.fromkeys([best_unit.chunk_number, *[u.chunk_number for u in chosen]]))}
    chosen.sort(key=lambda u: (order[u.chunk_number], u.position))
    lines: list[tuple[bool, str]] = []
    quotes: dict[int, list[str]] = {}
    for index, unit in enumerate(chosen):
        text = unit.text.strip()
        following = chosen[index + 1] if index + 1 < len(chosen) else None
        if text.endswith(":") and not (following and following.chunk_number == unit.chunk_number
                                       and _ROW_RE.match(following.text)):
            text = text[:-1].rstrip() + "."  # a table's lead without its rows ends as a sentence
        lines.append((bool(_ROW_RE.match(text)), _cite(text.lstrip("-•* "), unit.chunk_number)))
        quotes.setdefault(unit.chunk_number, []).append(text)
    body = _join(lines)
    return Generation(text=body, model=MODEL_NAME, quotes={n: " … ".join(q) for n, q in quotes.items()})


def _unit_score(
    unit: Unit, q: np.ndarray, q_words: set[str], q_entities: set[str], chunk_match: float, wants_number: bool
) -> float:
    sim = float(unit.vector @ q)
    words = content_words(unit.text)
    lex = len(q_words & words) / len(q_words) if q_words else 0.0
    entity = 1.0 if q_entities & _codes_in(unit.text) else 0.0
    number = 1.0 if wants_number and _DIGIT_RE.search(unit.text) else 0.0
    return W_SIM * sim + W_LEX * lex + W_ENTITY * entity + chunk_match + W_NUMBER * number


@functools.lru_cache(maxsize=16384)  # the same chunks and sentences come back question after question
def _codes_in(text: str) -> frozenset[str]:
    """Return the diagnostic codes and VA form numbers ``text`` names."""
    return frozenset(dc_codes_find(text)) | frozenset(va_forms_find(text))


def _borrowed_table(
    question: str, by_chunk: Mapping[int, list[tuple[float, Unit]]], chunk_of: Mapping[int, SourceChunk],
    chunk_types: Mapping[int, str], *, besides: int,
) -> list[Unit]:
    """Return the rating table of the best-matching other source, for a question asking for the levels."""
    if not _LEVELS_QUESTION_RE.search(question):
        return []
    for number, scored in sorted(by_chunk.items(), key=lambda item: -max(s for s, _ in item[1])):
        if number != besides and (rows := _rating_rows(question, chunk_of[number], scored, chunk_types)):
            return rows
    return []


def _rating_rows(
    question: str, chunk: SourceChunk, scored: list[tuple[float, Unit]], chunk_types: Mapping[int, str]
) -> list[Unit]:
    """Return a rating table whole (its lead sentence and its levels) when a rating question meets one."""
    if not _RATING_QUESTION_RE.search(question):
        return []
    units = [u for _, u in scored]
    rows = [u for u in units if _ROW_RE.match(u.text)]
    if not rows or (chunk_types.get(chunk.chunk_id) != "rating_table" and len(rows) < 2):
        return []
    lead = [u for u in units if not _ROW_RE.match(u.text)][:1]
    return lead + rows[:MAX_TABLE_ROWS]


def _cite(text: str, number: int) -> str:
    """Put the marker inside the sentence ("... maximum [1].") so sentence splitters keep it with its claim."""
    match = _END_PUNCT_RE.search(text)
    if match:
        return f"{text[: match.start()]} [{number}]{text[match.start():]}"
    return f"{text} [{number}]"


def _join(lines: list[tuple[bool, str]]) -> str:
    """Join prose into paragraphs and rating rows into a list, each row on its own line."""
    out = ""
    previous_row: bool | None = None
    for is_row, line in lines:
        if previous_row is None:
            out = f"- {line}" if is_row else line
        elif is_row:
            out += f"\n- {line}"
        elif previous_row:
            out += f"\n\n{line}"
        else:
            out += f" {line}"
        previous_row = is_row
    return out


class ExtractiveGenerator:
    """``extractive_generate`` over the chunks' stored sentence vectors (made now for any not made yet)."""

    name = MODEL_NAME

    def generate(self, *, question: str, chunks: Sequence[SourceChunk], context: GenerationContext) -> Generation:
        from knowledge import selectors as kb
        from knowledge.extraction import lay_terms_expand
        from knowledge.services import chunk_units_build

        pairs = [(c.chunk_id, c.content) for c in chunks]
        units = kb.chunk_units_get(chunks=pairs, model_name=context.embedding_model)
        missing = [(pk, content) for pk, content in pairs if not units.get(pk)]
        if missing:  # chunks whose sentences were not embedded yet: embed them now rather than fail
            units.update(chunk_units_build(chunks=missing, provider_name=context.provider_name))
        return extractive_generate(
            question=lay_terms_expand(text=question), question_vector=context.question_vector, chunks=chunks,
            units=units, chunk_types=context.chunk_types, codes=context.codes,
        )
