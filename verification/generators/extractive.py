"""The offline generator: cited sentences and table rows chosen from the retrieved chunks.

Nothing is written that a source does not say: every line of the answer is a sentence or table row of a
cited chunk, chosen by similarity to the question with diversity (maximal marginal relevance), kept in the
order the sources give them. Sentence vectors are made once at ingestion (a MiniLM pass costs ~6 ms a
sentence here), so answering needs only dot products.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from knowledge.patterns import dc_codes_find, va_forms_find
from verification.generators import Generation
from verification.layers.types import SourceChunk

MODEL_NAME = "extractive"
# Selection sizes: a phone screen's worth of answer. Four prose units read as a paragraph; a rating table
# keeps up to eight levels so every percentage stays next to its criteria.
MAX_UNITS = 4
MAX_TABLE_ROWS = 8
MAX_CHARS = 900
# MMR trade-off between relevance and novelty (Carbonell & Goldstein, 1998); 0.7 favours relevance.
MMR_LAMBDA = 0.7
# A unit must score at least this share of the best unit's score to be worth reading.
RELATIVE_FLOOR = 0.75
# Weights of the unit score: meaning first, then the question's own words, codes and forms, then how well
# the whole chunk matched. Tuned on the golden set (`manage.py evaluate`).
W_SIM, W_LEX, W_ENTITY, W_CHUNK = 0.55, 0.25, 0.25, 0.2

_WORD_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")
_PERCENT_ROW_RE = re.compile(r"^\s*(?:[-•*]\s*)?\d{1,3}\s?%")
_RATING_QUESTION_RE = re.compile(r"\b(rat(ed|ing|ings)|percent|%|criteria|how much|what level|evaluat\w*)\b", re.I)
STOP_WORDS = frozenset(
    "a an the and or of to in on for with by at from as is are was were be been being do does did i my me we our "
    "you your it its this that these those what which who whom how when where why can could should would will "
    "shall may might must if then than so not no yes there their they them he she his her about into over "
    "under get got have has had va".split()
)


@dataclass(frozen=True)
class Unit:
    chunk_number: int
    position: int
    text: str
    vector: np.ndarray


def content_words(text: str) -> set[str]:
    return {_stem(w) for w in _WORD_RE.findall(text.lower()) if w not in STOP_WORDS}


def _stem(word: str) -> str:
    for suffix in ("ings", "ing", "ies", "es", "s", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def extractive_generate(
    *,
    question: str,
    question_vector: np.ndarray,
    chunks: Sequence[SourceChunk],
    units: Mapping[int, Sequence[tuple[str, np.ndarray]]],
    chunk_types: Mapping[int, str] | None = None,
) -> Generation:
    """Return a cited answer built from the chunks' own sentences; empty text when nothing fits."""
    chunk_types = chunk_types or {}
    q_words = content_words(question)
    q_entities = set(dc_codes_find(question)) | set(va_forms_find(question))
    candidates: list[tuple[float, Unit]] = []
    for chunk in chunks:
        for position, (text, vector) in enumerate(units.get(chunk.chunk_id, ())):
            unit = Unit(chunk.number, position, text, np.asarray(vector, dtype=np.float32))
            candidates.append((_unit_score(unit, question_vector, q_words, q_entities, chunk.score), unit))
    if not candidates:
        return Generation(text="", model=MODEL_NAME)

    table = _rating_table(question, chunks, units, chunk_types, q_entities, candidates)
    chosen = table or _mmr_select(candidates)
    chosen.sort(key=lambda u: (u.chunk_number, u.position))
    lines: list[str] = []
    quotes: dict[int, list[str]] = {}
    for unit in chosen:
        text = unit.text.strip()
        is_row = bool(_PERCENT_ROW_RE.match(text))
        line = f"{text.lstrip('-•* ')} [{unit.chunk_number}]"
        lines.append(f"- {line}" if is_row else line)
        quotes.setdefault(unit.chunk_number, []).append(text)
    body = _join(lines)
    return Generation(text=body, model=MODEL_NAME, quotes={n: " … ".join(q) for n, q in quotes.items()})


def _unit_score(unit: Unit, q: np.ndarray, q_words: set[str], q_entities: set[str], chunk_score: float) -> float:
    sim = float(unit.vector @ q)
    words = content_words(unit.text)
    lex = len(q_words & words) / len(q_words) if q_words else 0.0
    entity = 1.0 if q_entities and q_entities & (set(dc_codes_find(unit.text)) | set(va_forms_find(unit.text))) else 0.0
    return W_SIM * sim + W_LEX * lex + W_ENTITY * entity + W_CHUNK * chunk_score


def _mmr_select(candidates: list[tuple[float, Unit]]) -> list[Unit]:
    best = max(score for score, _ in candidates)
    pool = [(s, u) for s, u in candidates if s >= RELATIVE_FLOOR * best and len(u.text.strip()) > 20]
    chosen: list[Unit] = []
    total = 0
    seen_text: set[str] = set()
    while pool and len(chosen) < MAX_UNITS:
        def mmr(item: tuple[float, Unit]) -> float:
            score, unit = item
            redundancy = max((float(unit.vector @ c.vector) for c in chosen), default=0.0)
            return MMR_LAMBDA * score - (1 - MMR_LAMBDA) * redundancy

        item = max(pool, key=mmr)
        pool.remove(item)
        unit = item[1]
        key = unit.text.strip().lower()
        if key in seen_text or (chosen and max(float(unit.vector @ c.vector) for c in chosen) > 0.95):
            continue  # overlapping chunks repeat paragraphs: say each thing once
        if chosen and total + len(unit.text) > MAX_CHARS:
            continue
        chosen.append(unit)
        seen_text.add(key)
        total += len(unit.text)
    return chosen


def _rating_table(
    question: str,
    chunks: Sequence[SourceChunk],
    units: Mapping[int, Sequence[tuple[str, np.ndarray]]],
    chunk_types: Mapping[int, str],
    q_entities: set[str],
    candidates: list[tuple[float, Unit]],
) -> list[Unit]:
    """Return a rating table's levels whole when the question asks for a rating and a table answers it."""
    if not _RATING_QUESTION_RE.search(question):
        return []
    best_unit = max(candidates, key=lambda c: c[0])[1]
    for chunk in chunks[:2]:
        rows = [(i, t, v) for i, (t, v) in enumerate(units.get(chunk.chunk_id, ())) if _PERCENT_ROW_RE.match(t)]
        is_table = chunk_types.get(chunk.chunk_id) == "rating_table" or len(rows) >= 2
        names_code = not q_entities or q_entities & set(dc_codes_find(chunk.content))
        if not rows or not is_table or not names_code or chunk.number != best_unit.chunk_number:
            continue
        chunk_units = units[chunk.chunk_id]
        lead = [Unit(chunk.number, i, t, np.asarray(v)) for i, (t, v) in enumerate(chunk_units)
                if not _PERCENT_ROW_RE.match(t)][:2]
        table = [Unit(chunk.number, i, t, np.asarray(v)) for i, t, v in rows[:MAX_TABLE_ROWS]]
        return lead + table
    return []


def _join(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if out and (line.startswith("- ") or out[-1].startswith("- ")):
            out.append("\n" + line)
        elif out:
            out.append(" " + line)
        else:
            out.append(line)
    return "".join(out)
