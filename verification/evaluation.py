"""The golden-set quality report.

Each golden item is answered through the real pipeline (no cache) and judged: an item that expects an answer is
*fully correct* when the answer is not a refusal, cites a source, states every ``must_contain`` fact and none of
the ``must_not_contain`` facts; otherwise it is *wrong* or *wrongly refused*. An item that expects a refusal is
*rightly refused* when refused for an accepted reason (and, for a crisis, with the facts it must carry, such as
the crisis line's number), or - for a near-domain question - answered with a scope note; otherwise it is
*wrong*. Facts match robustly ("10%" = "10 percent", "$1,699.36" = "1699.36", "one year" = "1 year") but never
inside a longer number ("0%" is not in "10%").

Besides the verdicts the report counts what must never be served: answers with a number or code their cited
sources lack (*fabricated numbers*), citations to a missing source or an off-list URL, and *planted
hallucinations*: every answerable question is asked a second time with an OpenAI-compatible model that adds
invented figures, codes, forms, deadlines, a phone number and a link to a true sentence (a local server plays
the model), and any invention that reaches the served answer is counted.
"""

from __future__ import annotations

import datetime
import json
import re
import threading
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings
from django.test.utils import override_settings

from knowledge.embeddings import embedding_provider_get
from knowledge.models import AnsweredQuestion, Chunk
from knowledge.patterns import NUMBER_WORDS
from knowledge.selectors import chunks_search
from verification.layers.cleanup import citations_used
from verification.layers.numbers import KIND_DATE, KIND_YEAR, facts_find, numbers_verify
from verification.layers.prompt import SOURCE_CLOSE, SOURCE_OPEN
from verification.layers.types import SourceChunk
from verification.layers.url_whitelist import url_allowed
from verification.review_deadlines import first_of_next_month, one_year_on
from verification.scope import SCOPE_MESSAGE_CHIT_CHAT
from verification.services import _whitelist, answer_question

# ---- the golden item format ----------------------------------------------------------------------------

KIND_ANSWERABLE = "answerable"
KIND_TERMINOLOGY = "terminology"
KIND_ROUTED = "routed"  # "what's my claim status", "copy of my DD-214": says where that lives, refused or not
KIND_OUT_OF_SCOPE = "out_of_scope"
KIND_ENTITY_NOT_FOUND = "entity_not_found"
KIND_UNANSWERABLE = "unanswerable"
KIND_TERMINOLOGY_NOT_FOUND = "terminology_not_found"
ANSWER_KINDS = (KIND_ANSWERABLE, KIND_TERMINOLOGY, KIND_ROUTED)
REFUSAL_KINDS = (KIND_OUT_OF_SCOPE, KIND_ENTITY_NOT_FOUND, KIND_UNANSWERABLE, KIND_TERMINOLOGY_NOT_FOUND)
KINDS = ANSWER_KINDS + REFUSAL_KINDS
# The kinds that must never get a confident benefits answer: the held-out target is 100% refused or scoped.
OUT_OF_SCOPE_KINDS = (KIND_OUT_OF_SCOPE, KIND_UNANSWERABLE)

OUTCOME_CORRECT = "correct"
OUTCOME_WRONG = "wrong"
OUTCOME_WRONGLY_REFUSED = "wrongly_refused"
OUTCOME_RIGHTLY_REFUSED = "rightly_refused"
OUTCOMES = (OUTCOME_CORRECT, OUTCOME_WRONG, OUTCOME_WRONGLY_REFUSED, OUTCOME_RIGHTLY_REFUSED)

# Verdict reasons: what a reader of the report (or the hand-check file) sees next to a wrong answer.
REASON_CORRECT = "states every required fact, none of the wrong ones, and cites a source"
REASON_REFUSED = "refused ({reason}) a question it should answer"
REASON_MISSING = "leaves out {facts}"
REASON_FORBIDDEN = "states {facts}, which is wrong here"
REASON_UNCITED = "cites no source"
REASON_RIGHTLY_REFUSED = "refused ({reason}), as expected"
REASON_SCOPED = "answered with a scope note, as accepted for a near-domain question"
REASON_REFUSED_OTHER = "refused ({reason}), expected {expected}"
REASON_ANSWERED = "answered a question it should refuse ({expected})"
REASON_ROUTED = "says where the asker can get it"

# A scoped answer carries the opening of the product's scope message ("I can only help with questions about VA
# benefits"): a near-domain question may be answered with it instead of refused.
SCOPE_NOTE = SCOPE_MESSAGE_CHIT_CHAT.split(",", 1)[0]


class GoldenFormatError(ValueError):
    pass


def golden_load(*, path: Path) -> list[dict[str, Any]]:
    """Read a golden set (one JSON object a line); reject the file, naming the line, on a malformed item."""
    items: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise GoldenFormatError(f"{path}: line {number}: {exc}") from exc
        if problem := _item_problem(item):
            raise GoldenFormatError(f"{path}: line {number}: {problem}")
        if item["id"] in seen:
            raise GoldenFormatError(f"{path}: line {number}: duplicate id {item['id']}")
        seen.add(item["id"])
        items.append(item)
    return items


def _item_problem(item: object) -> str | None:
    if not isinstance(item, dict) or not item.get("question") or not item.get("id"):
        return "needs id and question"
    kind = item.get("kind")
    if kind not in KINDS:
        return f"kind must be one of {', '.join(KINDS)}"
    for key in ("must_contain", "must_not_contain"):
        facts = item.get(key) or []
        if not isinstance(facts, list) or not all(_fact_valid(f) for f in facts):
            return (f"{key} must be a list of facts (a string, a list of alternative strings, or "
                    '{"together": [facts]} for facts one sentence must state)')
    if kind in REFUSAL_KINDS and not item.get("expected_refusal"):
        return "a refusal item needs expected_refusal"
    if kind in ANSWER_KINDS and not item.get("must_contain"):
        return "an item that expects an answer needs must_contain facts"
    return None


def _fact_valid(fact: object) -> bool:
    if isinstance(fact, str):
        return bool(fact.strip())
    if isinstance(fact, dict):
        together = fact.get("together")
        return set(fact) == {"together"} and isinstance(together, list) and len(together) >= 2 and all(
            not isinstance(f, dict) and _fact_valid(f) for f in together)
    return isinstance(fact, list) and bool(fact) and all(isinstance(f, str) and f.strip() for f in fact)


def accepted_refusals(item: dict[str, Any]) -> tuple[str, ...]:
    """The refusal reasons that count as right for a refusal item: the expected one and any listed alternatives."""
    return tuple(dict.fromkeys([item["expected_refusal"], *(item.get("acceptable_refusals") or [])]))


def item_group(item: dict[str, Any]) -> str:
    """The row an item counts under in the per-topic table: its topic, or its kind when it has none."""
    return item.get("topic") or item["kind"]


# ---- matching facts --------------------------------------------------------------------------------------

_NUMBER_WORD_RE = re.compile(
    r"(?<![\w-])(" + "|".join(sorted((w for w in NUMBER_WORDS if w != "zero"), key=len, reverse=True)) + r")(?![\w-])"
)
_HUNDRED_RE = re.compile(r"(?<![\w-])(?:one|a) hundred(?![\w-])")
_PERCENT_RE = re.compile(r"(\d)\s*(?:%|percent\b|per cent\b|pct\b)")
_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# "70-100%", "10 to 20 percent", "20 or 30%": the percent sign belongs to both numbers.
_PERCENT_RANGE_RE = re.compile(r"(?<![\d.,])(\d{1,3})(\s*(?:-|to|and|or)\s*)(?=\d{1,3}%)")
_CITATION_RE = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")
_WORD_HYPHEN_RE = re.compile(r"(?<=[a-z])[-\u2010\u2011](?=[a-z])")
_CFR_RE = re.compile(r"c\.\s?f\.\s?r\.?")
_SPACES_RE = re.compile(r"\s+")


def fact_normalise(text: str) -> str:
    """Fold the ways one fact is written into one: case, dashes and quotes, Markdown emphasis, citation markers,
    "percent", thousands separators, dollar signs, number words and hyphens between words."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = text.translate({0x2013: "-", 0x2014: "-", 0x2212: "-", 0x2018: "'", 0x2019: "'", 0x201C: '"',
                           0x201D: '"', 0xA0: " ", 0xA7: " "})
    text = text.replace("**", "").replace("__", "").replace("`", "")
    text = _CITATION_RE.sub(" ", text)
    text = _CFR_RE.sub("cfr", text)
    text = _WORD_HYPHEN_RE.sub(" ", text)  # first: "a one-year period" states "1 year"
    text = _HUNDRED_RE.sub("100", text)
    text = _NUMBER_WORD_RE.sub(lambda m: str(NUMBER_WORDS[m.group(1)]), text)
    text = _PERCENT_RE.sub(r"\1%", text)
    text = _PERCENT_RANGE_RE.sub(r"\1%\2", text)
    text = _THOUSANDS_RE.sub("", text)
    text = re.sub(r"\$\s?(?=\d)", "", text)
    return _SPACES_RE.sub(" ", text).strip()


def _fact_pattern(fact: str) -> re.Pattern[str]:
    normal = fact_normalise(fact)
    head = r"(?<![\w])(?<!\d\.)" if normal[:1].isalnum() else ""
    if normal[-1:].isalpha():  # "Vietnam veteran" is stated by "Vietnam veterans"
        tail = r"(?:s|es)?(?![\w])"
    elif normal[-1:].isdigit():
        tail = r"(?![\w])(?!\.\d)"
    else:
        tail = ""
    return re.compile(head + re.escape(normal) + tail)


Fact = str | Sequence[str] | dict[str, Any]
# A sentence or a line (a table row, a list item): the unit a {"together": [...]} fact must sit in.
_UNIT_SPLIT_RE = re.compile(r"\n+|(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")


def fact_found(fact: Fact, text: str) -> bool:
    """Whether the text states the fact (or any of its alternatives), never counting a match inside a longer
    number or word: "10%" is in "rated 10 percent" but "0%" is not in "10%". A {"together": [...]} fact needs
    all its parts in one sentence or line, so a level's percentage counts only beside that level's criterion
    ("10%" with "one or two" painful scars), never from another table in the same answer."""
    if isinstance(fact, dict):
        return any(all(fact_found(part, unit) for part in fact["together"]) for unit in _UNIT_SPLIT_RE.split(text))
    alternatives = [fact] if isinstance(fact, str) else list(fact)
    normal = fact_normalise(text)
    return any(_fact_pattern(alternative).search(normal) for alternative in alternatives)


def _fact_label(fact: Fact) -> str:
    if isinstance(fact, dict):
        return " with ".join(_fact_label(part) for part in fact["together"]) + " in one sentence"
    return f"“{fact}”" if isinstance(fact, str) else " or ".join(f"“{f}”" for f in fact)


# ---- judging one answer ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Served:
    """What the judge reads of an answer: its text (without the service's own warning), refusal and citations."""

    text: str
    refused: bool
    refusal_reason: str | None
    citation_count: int

    @classmethod
    def from_result(cls, result) -> Served:
        text = result.answer.replace(result.warning, "", 1) if result.warning else result.answer
        return cls(text=text, refused=result.refused, refusal_reason=result.refusal_reason,
                   citation_count=len(result.citations))


@dataclass(frozen=True)
class Verdict:
    outcome: str
    reason: str
    missing: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    scoped: bool = False


def is_scoped(text: str) -> bool:
    """Whether an answer carries a scope note instead of a confident benefits answer."""
    return fact_found(SCOPE_NOTE, text)


def answer_judge(*, item: dict[str, Any], served: Served) -> Verdict:
    """Judge one served answer against its golden item (see the module docstring for the rules)."""
    missing = tuple(_fact_label(f) for f in item.get("must_contain") or [] if not fact_found(f, served.text))
    forbidden = tuple(_fact_label(f) for f in item.get("must_not_contain") or [] if fact_found(f, served.text))
    kind = item["kind"]
    if kind in REFUSAL_KINDS:
        return _refusal_judge(item=item, served=served, missing=missing, forbidden=forbidden)
    if kind == KIND_ROUTED:  # a pointer to VA.gov, the benefits line or another office: refused or not, cited or not
        if missing or forbidden:
            return _wrong(missing, forbidden)
        return Verdict(OUTCOME_CORRECT, REASON_ROUTED)
    if served.refused:
        return Verdict(OUTCOME_WRONGLY_REFUSED, REASON_REFUSED.format(reason=served.refusal_reason),
                       missing=missing, forbidden=forbidden)
    if missing or forbidden or not served.citation_count:
        return _wrong(missing, forbidden, uncited=not served.citation_count)
    return Verdict(OUTCOME_CORRECT, REASON_CORRECT)


def _refusal_judge(*, item: dict[str, Any], served: Served, missing: tuple[str, ...],
                   forbidden: tuple[str, ...]) -> Verdict:
    accepted = accepted_refusals(item)
    if served.refused and served.refusal_reason in accepted:
        if missing or forbidden:
            return _wrong(missing, forbidden)
        return Verdict(OUTCOME_RIGHTLY_REFUSED, REASON_RIGHTLY_REFUSED.format(reason=served.refusal_reason))
    if served.refused:
        return Verdict(OUTCOME_WRONG, REASON_REFUSED_OTHER.format(reason=served.refusal_reason,
                                                                  expected=" or ".join(accepted)))
    if item["kind"] in OUT_OF_SCOPE_KINDS and item.get("scope_note_accepted") and is_scoped(served.text):
        if missing or forbidden:
            return _wrong(missing, forbidden)
        return Verdict(OUTCOME_RIGHTLY_REFUSED, REASON_SCOPED, scoped=True)
    return Verdict(OUTCOME_WRONG, REASON_ANSWERED.format(expected=" or ".join(accepted)))


def _wrong(missing: tuple[str, ...], forbidden: tuple[str, ...], *, uncited: bool = False) -> Verdict:
    parts = []
    if missing:
        parts.append(REASON_MISSING.format(facts=", ".join(missing)))
    if forbidden:
        parts.append(REASON_FORBIDDEN.format(facts=", ".join(forbidden)))
    if uncited:
        parts.append(REASON_UNCITED)
    return Verdict(OUTCOME_WRONG, "; ".join(parts), missing=missing, forbidden=forbidden)


# ---- planted hallucinations --------------------------------------------------------------------------------

# Each invention is the first candidate the prompt does not contain, so finding it in the served answer can
# only mean the layers let an invention through. Percentages, a diagnostic code, a dollar amount, a VA form,
# a deadline, a phone number and a link: the kinds of figure the grounding prompt forbids inventing.
PLANT_CANDIDATES: dict[str, tuple[str, ...]] = {
    "percentage": ("37%", "43%", "57%", "83%", "17%"),
    "diagnostic_code": ("6299", "5399", "7399", "8399"),
    "amount": ("$4,321.09", "$2,718.28", "$3,141.59"),
    "form": ("21-9043", "21-7719", "20-0917"),
    "deadline": ("47 days", "53 days", "71 days"),
    "phone": ("1-888-555-0142", "1-877-555-0199"),
    "link": ("va-benefits-help.example.com", "veteran-claims-desk.example.net"),
}
PLANT_SENTENCES = (
    "Veterans in this situation are rated {percentage} under diagnostic code {diagnostic_code} [{n}].",
    "The monthly payment for this is {amount} [{n}].",
    "You must file VA Form {form} within {deadline} of your decision [{n}].",
    "For help, call {phone} or apply at https://{link}/apply [{n}].",
)
PLANT_MODEL = "planted-hallucinations"
_NO_SOURCES_REPLY = "The sources given do not answer this question."


def plants_choose(prompt: str) -> dict[str, str]:
    """Return one invention of each kind that the prompt (its sources and question) does not contain."""
    chosen = {}
    for kind, candidates in PLANT_CANDIDATES.items():
        chosen[kind] = next((c for c in candidates if not fact_found(c, prompt)), candidates[-1])
    return chosen


def planted_reply(prompt: str) -> str:
    """A model reply that opens with the first source's first sentence, cited, and then invents."""
    opening, closing = (re.escape(marker).replace(r"\{number\}", r"(\d+)") for marker in (SOURCE_OPEN, SOURCE_CLOSE))
    match = re.search(opening + r"\s*\n(.*?)" + closing, prompt, re.S)
    if not match:
        return _NO_SOURCES_REPLY
    number, block = match.group(1), match.group(2)
    body = block.split("\n\n", 1)[-1].strip()
    first = re.split(r"(?<=[.!?])\s+", body, maxsplit=1)[0].rstrip(".") if body else "See the source"
    plants = plants_choose(prompt)
    invented = " ".join(s.format(n=number, **plants) for s in PLANT_SENTENCES)
    return f"{first} [{number}]. {invented}"


def plants_served(*, plants: dict[str, str], answer: str) -> list[str]:
    """The inventions that reached the served answer."""
    return [value for value in plants.values() if fact_found(value, answer) or value in answer]


class _PlantingHandler(BaseHTTPRequestHandler):
    server: _PlantingHTTPServer

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        prompt = "\n".join(m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "user")
        reply = planted_reply(prompt)
        self.server.record(prompt=prompt, reply=reply)
        payload = json.dumps({
            "id": "chatcmpl-planted", "object": "chat.completion", "created": int(time.time()),
            "model": PLANT_MODEL,
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply}}],
            "usage": {"prompt_tokens": len(prompt.split()), "completion_tokens": len(reply.split()),
                      "total_tokens": len(prompt.split()) + len(reply.split())},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:
        return


class _PlantingHTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _PlantingHandler)
        self._lock = threading.Lock()
        self.prompts: list[str] = []

    def record(self, *, prompt: str, reply: str) -> None:
        with self._lock:
            self.prompts.append(prompt)


@contextmanager
def planting_model() -> Iterator[_PlantingHTTPServer]:
    """Point the OpenAI-compatible generator at a local model that plants hallucinations, for the block."""
    server = _PlantingHTTPServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        with override_settings(LLM_PROVIDER="openai", OPENAI_API_KEY="planted-evaluation", OPENAI_BASE_URL=base_url,
                               OPENAI_MAX_RETRIES=0, OPENAI_TIMEOUT_SECONDS=30.0):
            yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# ---- the report --------------------------------------------------------------------------------------------

# Metrics CI guards against a drop of more than TOLERANCE (3 points) below the committed baseline. The
# wrongly-refused share is guarded against a rise instead.
GUARDED_METRICS = ("fully_correct_rate", "rightly_refused_rate", "out_of_scope_handled_rate", "retrieval_hit_at_7",
                   "retrieval_recall_at_7")
GUARDED_LOWER_IS_BETTER = ("wrongly_refused_rate",)
# Counts that must stay zero whatever the baseline says.
ZERO_METRICS = ("fabricated_numbers", "invalid_citations", "planted_served")
TOLERANCE = 0.03


def _ratio(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


@dataclass
class _Tally:
    items: int = 0
    answer_items: int = 0
    refusal_items: int = 0
    out_of_scope_items: int = 0
    out_of_scope_handled: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    scoped: int = 0
    fabricated_numbers: int = 0
    invalid_citations: int = 0
    planted: int = 0
    planted_served: int = 0
    latency: list[float] = field(default_factory=list)

    def add(self, *, item: dict[str, Any], verdict: Verdict, fabricated: bool, invalid: bool, refused: bool,
            latency_ms: float) -> None:
        self.items += 1
        self.outcomes[verdict.outcome] += 1
        if item["kind"] in ANSWER_KINDS:
            self.answer_items += 1
        else:
            self.refusal_items += 1
        if item["kind"] in OUT_OF_SCOPE_KINDS:
            self.out_of_scope_items += 1
            self.out_of_scope_handled += int(refused or verdict.scoped)
        self.scoped += int(verdict.scoped)
        self.fabricated_numbers += int(fabricated)
        self.invalid_citations += int(invalid)
        self.latency.append(latency_ms)

    def summary(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "answer_items": self.answer_items,
            "refusal_items": self.refusal_items,
            **{outcome: self.outcomes[outcome] for outcome in OUTCOMES},
            "scoped": self.scoped,
            "fully_correct_rate": _ratio(self.outcomes[OUTCOME_CORRECT], self.answer_items),
            "wrong_rate": _ratio(self.outcomes[OUTCOME_WRONG], self.items),
            "wrongly_refused_rate": _ratio(self.outcomes[OUTCOME_WRONGLY_REFUSED], self.answer_items),
            "rightly_refused_rate": _ratio(self.outcomes[OUTCOME_RIGHTLY_REFUSED], self.refusal_items),
            "out_of_scope_handled_rate": _ratio(self.out_of_scope_handled, self.out_of_scope_items),
            "fabricated_numbers": self.fabricated_numbers,
            "invalid_citations": self.invalid_citations,
            "planted": self.planted,
            "planted_served": self.planted_served,
            "latency_ms": _percentiles(self.latency),
        }


def _percentiles(values: Sequence[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"p50": round(float(np.percentile(values, 50)), 2), "p95": round(float(np.percentile(values, 95)), 2)}


def _base(entry_id: str) -> str:
    return entry_id.split("#", 1)[0]


def golden_evaluate(*, items: Sequence[dict[str, Any]], planted: bool = True,
                    planted_limit: int | None = None) -> dict[str, Any]:
    """Answer every golden question without the cache, judge each answer, and report per topic and overall.

    With ``planted`` each answerable question (or ``planted_limit`` of them, evenly spread through the set) is
    asked again of a model that plants inventions."""
    overall = _Tally()
    by_topic: dict[str, _Tally] = defaultdict(_Tally)
    stage_ms: dict[str, list[float]] = defaultdict(list)
    retrieval = Counter()
    recall_sum = 0.0
    refusals: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    whitelist = _whitelist()
    for item in items:
        result = answer_question(question=item["question"], use_cache=False)
        for stage in result.trace:
            stage_ms[stage["stage"]].append(stage["ms"])
        served = Served.from_result(result)
        verdict = answer_judge(item=item, served=served)
        retrieved = _retrieved(result.id)
        fabricated = invalid = False
        if not result.refused and result.citations:
            fabricated = _unsupported_numbers(result, question=item["question"])
            invalid = _invalid_citations(result, whitelist)
        for tally in (overall, by_topic[item_group(item)]):
            tally.add(item=item, verdict=verdict, fabricated=fabricated, invalid=invalid, refused=result.refused,
                      latency_ms=result.latency_ms)
        if result.refused:
            refusals[result.refusal_reason] += 1
        expected = {_base(e) for e in item.get("expected_sources") or []}
        if item["kind"] == KIND_ANSWERABLE and expected and retrieved:
            found = expected & set(retrieved)
            retrieval["questions"] += 1
            retrieval["hit"] += bool(found)
            recall_sum += len(found) / len(expected)
            retrieval["cited_expected"] += bool(expected & {_base(c["chunk_id"]) for c in result.citations})
        rows.append(_row(item, result, verdict, retrieved, fabricated=fabricated, invalid=invalid))

    planted_report = _planted_pass(_spread([i for i in items if i["kind"] == KIND_ANSWERABLE], planted_limit),
                                   overall, by_topic) if planted else None
    n = retrieval["questions"]
    report = {
        "questions": len(items),
        "embedding_model": embedding_provider_get().model_name,
        "generator": settings.LLM_PROVIDER,
        "knowledge_base_chunks": Chunk.objects.count(),
        "overall": overall.summary(),
        "by_topic": {topic: by_topic[topic].summary() for topic in sorted(by_topic)},
        "retrieval_hit_at_7": _ratio(retrieval["hit"], n),
        "retrieval_recall_at_7": _ratio(recall_sum, n),
        "retrieval_cited_expected": _ratio(retrieval["cited_expected"], n),
        "refusals_by_reason": dict(sorted(refusals.items())),
        "planted": planted_report,
        "latency_ms": {"total": overall.summary()["latency_ms"],
                       **{k: _percentiles(v) for k, v in sorted(stage_ms.items())}},
        "items": rows,
    }
    report["guarded"] = guarded_metrics(report)
    return report


def _retrieved(answered_question_id: int | None) -> list[str]:
    if answered_question_id is None:
        return []
    row = AnsweredQuestion.objects.only("retrieved").get(id=answered_question_id)
    return [_base(r["entry_id"]) for r in row.retrieved or []]


def _row(item: dict[str, Any], result, verdict: Verdict, retrieved: list[str], *, fabricated: bool,
         invalid: bool) -> dict[str, Any]:
    return {
        "id": item["id"],
        "topic": item_group(item),
        "kind": item["kind"],
        "question": item["question"],
        "outcome": verdict.outcome,
        "reason": verdict.reason,
        "refused": result.refused,
        "refusal_reason": result.refusal_reason,
        "answer": result.answer,
        "cited": [c["chunk_id"] for c in result.citations],
        "retrieved": retrieved[:7],
        "fabricated_numbers": fabricated,
        "invalid_citations": invalid,
        "latency_ms": round(result.latency_ms, 2),
    }


def _spread(items: Sequence[dict[str, Any]], limit: int | None) -> Sequence[dict[str, Any]]:
    if limit is None or limit >= len(items):
        return items
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


def _planted_pass(items: Sequence[dict[str, Any]], overall: _Tally, by_topic: dict[str, _Tally]) -> dict[str, Any]:
    served_examples: list[dict[str, Any]] = []
    questions = llm_answers = 0
    with planting_model() as model:
        for item in items:
            asked = len(model.prompts)
            result = answer_question(question=item["question"], use_cache=False)
            questions += 1
            if len(model.prompts) == asked:  # refused or answered before generation: nothing was planted
                continue
            plants = plants_choose(model.prompts[-1])
            through = plants_served(plants=plants, answer=result.answer)
            llm_answers += int(not result.model.startswith("extractive"))
            for tally in (overall, by_topic[item_group(item)]):
                tally.planted += len(plants)
                tally.planted_served += len(through)
            if through:
                served_examples.append({"id": item["id"], "served": through, "answer": result.answer})
    return {"questions": questions, "generations_planted": overall.planted // len(PLANT_CANDIDATES),
            "model_answers_served": llm_answers, "planted": overall.planted, "served": overall.planted_served,
            "served_examples": served_examples}


def _invalid_citations(result, whitelist: list[str]) -> bool:
    numbers = {c["number"] for c in result.citations}
    bad_marker = bool(set(citations_used(result.answer)) - numbers)
    bad_url = any(not url_allowed(c["url"], whitelisted_domains=whitelist) for c in result.citations)
    return bad_marker or bad_url


# A rule worked out in code (a model named "calculator (...)") states what follows from the asker's own dates: the
# dates and years themselves, the day after one, the first of a following month, one a year on. Those are read
# against the question; every other figure of such an answer still needs a source, as in any other answer.
WORKED_OUT_MODEL_PREFIX = "calculator"


def _derived_from(question: str) -> set[str]:
    """The dates and years a worked-out answer may state from ``question``'s own, in the numbers layer's forms."""
    derived: set[str] = set()
    for fact in facts_find(question):
        if fact.kind == KIND_YEAR:
            derived |= {fact.value, str(int(fact.value) + 1)}
        elif fact.kind == KIND_DATE and re.fullmatch(r"\d{4}-\d{2}(?:-\d{2})?", fact.value):
            year, month = int(fact.value[:4]), int(fact.value[5:7])
            day = datetime.date(year, month, int(fact.value[8:10]) if len(fact.value) == 10 else 1)
            following = first_of_next_month(day)
            after_that = first_of_next_month(following)
            year_on = one_year_on(day)
            derived |= {fact.value, str(year), str(year + 1), (day + datetime.timedelta(days=1)).isoformat(),
                        following.isoformat(), after_that.isoformat(), year_on.isoformat(), year_on.isoformat()[:7]}
    return derived


def _unsupported_numbers(result, *, question: str = "") -> bool:
    contents = dict(Chunk.objects.filter(entry_id__in=[c["chunk_id"] for c in result.citations])
                    .values_list("entry_id", "content"))
    chunks = [SourceChunk(number=c["number"], chunk_id=0, entry_id=c["chunk_id"], title=c["title"], url=c["url"],
                          content=contents.get(c["chunk_id"], ""), score=1.0) for c in result.citations]
    # The warning prefix is the service's own note with its confidence score, not a claim from a source.
    answer = result.answer.replace(result.warning, "", 1) if result.warning else result.answer
    check = numbers_verify(answer=answer, chunks=chunks)
    unsupported = set(check.hallucinated_numbers)
    if unsupported and result.model.startswith(WORKED_OUT_MODEL_PREFIX):
        unsupported -= _derived_from(question)
    return bool(unsupported or check.hallucinated_codes)


def guarded_metrics(report: dict[str, Any]) -> dict[str, Any]:
    """The figures a baseline keeps and CI compares: the guarded rates and the counts that must stay zero."""
    overall = report["overall"]
    guarded = {name: overall.get(name, report.get(name)) for name in (*GUARDED_METRICS, *GUARDED_LOWER_IS_BETTER)}
    guarded.update({name: overall[name] for name in ZERO_METRICS})
    return guarded


def baseline_build(*, report: dict[str, Any], command: str) -> dict[str, Any]:
    """A baseline file's content: the guarded figures, and per topic for reading (not guarded)."""
    return {
        "command": command,
        "questions": report["questions"],
        "embedding_model": report["embedding_model"],
        "guarded": report["guarded"],
        "by_topic": {topic: {k: row[k] for k in ("items", *OUTCOMES, "fully_correct_rate")}
                     for topic, row in report["by_topic"].items()},
    }


def baseline_compare(*, report: dict[str, Any], baseline: dict[str, Any], tolerance: float = TOLERANCE) -> list[str]:
    """Return each guarded metric that fell more than `tolerance` below the baseline (rose above it, for the
    wrongly-refused share), and each must-stay-zero count that is not zero."""
    now, then = report["guarded"], baseline["guarded"]
    problems = []
    for name in GUARDED_METRICS:
        if then.get(name) is not None and (now.get(name) or 0.0) < then[name] - tolerance:
            problems.append(f"{name}: {now.get(name) or 0.0:.3f} < baseline {then[name]:.3f} - {tolerance:.2f}")
    for name in GUARDED_LOWER_IS_BETTER:
        if then.get(name) is not None and (now.get(name) or 0.0) > then[name] + tolerance:
            problems.append(f"{name}: {now.get(name) or 0.0:.3f} > baseline {then[name]:.3f} + {tolerance:.2f}")
    problems.extend(f"{name}: {now[name]} (must be 0)" for name in ZERO_METRICS if now.get(name))
    return problems


# ---- the readable table --------------------------------------------------------------------------------------

_COLUMNS = (
    ("topic", "{:<26}"), ("items", "{:>5}"), ("correct", "{:>7}"), ("wrong", "{:>5}"), ("w.refused", "{:>9}"),
    ("r.refused", "{:>9}"), ("fully%", "{:>6}"), ("w.ref%", "{:>6}"), ("r.ref%", "{:>6}"), ("fab.num", "{:>7}"),
    ("planted", "{:>9}"), ("p50 ms", "{:>7}"), ("p95 ms", "{:>7}"),
)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _table_row(name: str, row: dict[str, Any]) -> str:
    latency = row["latency_ms"] or {"p50": 0.0, "p95": 0.0}
    cells = (name, row["items"], row[OUTCOME_CORRECT], row[OUTCOME_WRONG], row[OUTCOME_WRONGLY_REFUSED],
             row[OUTCOME_RIGHTLY_REFUSED], _pct(row["fully_correct_rate"]), _pct(row["wrongly_refused_rate"]),
             _pct(row["rightly_refused_rate"]), row["fabricated_numbers"],
             f"{row['planted_served']}/{row['planted']}", f"{latency['p50']:.0f}", f"{latency['p95']:.0f}")
    return " ".join(fmt.format(cell) for (_, fmt), cell in zip(_COLUMNS, cells, strict=True))


def report_table(report: dict[str, Any], *, title: str = "") -> str:
    """The report as a fixed-width table: one row per topic, then the overall row and the other figures."""
    header = " ".join(fmt.format(name) for name, fmt in _COLUMNS)
    lines = [title] if title else []
    lines += [header, "-" * len(header)]
    lines += [_table_row(topic, row) for topic, row in report["by_topic"].items()]
    lines += ["-" * len(header), _table_row("overall", report["overall"])]
    overall = report["overall"]
    lines.append(
        f"out of scope refused or scoped: {_pct(overall['out_of_scope_handled_rate'])}%   "
        f"retrieval hit@7: {_pct(report['retrieval_hit_at_7'])}%   recall@7: {_pct(report['retrieval_recall_at_7'])}%   "
        f"invalid citations: {overall['invalid_citations']}   planted hallucinations served: "
        f"{overall['planted_served']} of {overall['planted']}"
    )
    lines.append("fully% = fully correct of the items expecting an answer; w.ref% = wrongly refused of those; "
                 "r.ref% = rightly refused of the items expecting a refusal; planted = served/planted inventions")
    return "\n".join(lines)


# ---- calibration ----------------------------------------------------------------------------------------------


def threshold_sweep(*, items: Sequence[dict[str, Any]], thresholds: Sequence[float]) -> dict[str, Any]:
    """Return, per θmin, the share of answerable questions refused and of off-topic questions caught."""
    provider = embedding_provider_get()
    best: dict[str, list[float]] = defaultdict(list)
    for item in items:
        vector = provider.embed([item["question"]])[0]
        hits = chunks_search(query=item["question"], query_vector=vector, top_k=1)
        best[item["kind"]].append(hits[0].similarity if hits else 0.0)
    rows = []
    for theta in thresholds:
        row = {"theta_min": theta}
        for kind, scores in best.items():
            row[f"{kind}_below"] = round(sum(s < theta for s in scores) / len(scores), 3)
        rows.append(row)
    quantiles = {kind: {f"p{q}": round(float(np.percentile(s, q)), 3) for q in (10, 50, 90)}
                 for kind, s in best.items()}
    return {"top1_similarity": quantiles, "sweep": rows}


def handcheck_sample(*, items: Sequence[dict[str, Any]], count: int, seed: int) -> list[dict[str, Any]]:
    """`count` items drawn with a fixed seed, every topic row at least once and the rest in proportion to the
    rows' sizes, so the same command always picks the same items and the big rows get most of the checks."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        groups[item_group(item)].append(item)
    names = sorted(groups)
    shares = {name: len(groups[name]) * count / len(items) for name in names}
    quota = {name: min(len(groups[name]), max(1, int(shares[name]))) for name in names}
    by_remainder = sorted(names, key=lambda name: (shares[name] - int(shares[name]), name), reverse=True)
    deficit = min(count, len(items)) - sum(quota.values())
    for name in by_remainder * count:  # one more each, largest remainder first, round again if needed
        if deficit <= 0:
            break
        if quota[name] < len(groups[name]):
            quota[name] += 1
            deficit -= 1
    while sum(quota.values()) > count:
        name = max((n for n in names if quota[n] > 1), key=lambda n: quota[n])
        quota[name] -= 1
    rng = np.random.default_rng(seed)
    picked = []
    for name in names:
        order = rng.permutation(len(groups[name]))[: quota[name]]
        picked.extend(groups[name][i] for i in sorted(order))
    return picked
