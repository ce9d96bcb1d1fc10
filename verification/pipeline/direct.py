"""Answers no generator writes: combined ratings computed by 38 CFR 4.25 and 4.26, the monthly amount of one
rating read off VA's rates table, where the asker's own record lives, and what another agency's document
(DD-214, SF-180, ...) is and how to get it."""

from __future__ import annotations

import datetime
import re

from knowledge import selectors as kb
from verification.combined_ratings import (
    CFR_4_25_URL_SUFFIX,
    CFR_4_26_URL_SUFFIX,
    CombinedQuestion,
    CombinedRating,
    combined_question_parse,
    combined_rating,
)
from verification.effective_dates import (
    EFFECTIVE_DATE_URL_SUFFIX,
    PAYMENT_START_URL_SUFFIX,
    effective_date_answer,
    effective_date_parse,
)
from verification.generators import EXTRACTIVE
from verification.generators.extractive import FAMILY_RATES_RE, OWN_FAMILY_RE, levels_asked
from verification.joint_motion import KNEE_URL_SUFFIX, knee_motion_answer, knee_motion_parse
from verification.layers.citations import content_words
from verification.layers.cleanup import CITATION_MARKER_RE
from verification.layers.numbers import facts_unsupported
from verification.layers.types import SourceChunk
from verification.loan_fee import COE_URL_SUFFIX, FEE_URL_SUFFIX, funding_fee_answer, funding_fee_rating_parse
from verification.non_va_documents import asks_about_document, non_va_document_answer, non_va_document_find
from verification.own_record import URL_SUFFIXES, own_record_answer, own_record_kind
from verification.pipeline.reply import clean_verification
from verification.pipeline.state import AnswerState, Reply, replace
from verification.priority_groups import (
    FREE_WORDS,
    NO_COPAYS_WORDS,
    PRIORITY_URL_SUFFIX,
    priority_group_answer,
    priority_group_rating_parse,
)
from verification.priority_groups import priority_group as priority_group_of
from verification.rating_tests import (
    CFR_3_350_URL_SUFFIX,
    CFR_4_16_URL_SUFFIX,
    smc_s_answer,
    smc_s_check,
    smc_s_ratings_parse,
    tdiu_answer,
    tdiu_check,
    tdiu_ratings_parse,
)
from verification.review_deadlines import (
    DECISION_REVIEWS_URL_SUFFIX,
    MISSED_DEADLINE_URL_SUFFIX,
    review_window_answer,
    review_window_parse,
)

CALCULATOR_MODEL = "calculator (38 CFR 4.25)"
COMBINED_LEAD = (
    "Your combined rating would be {rating}% [1]. VA does not add ratings: it combines them with the combined "
    "ratings table in 38 CFR 4.25, largest first, each applying only to the efficiency the larger ones left, "
    "and rounds once, at the end [1]."
)
COMBINED_BILATERAL = (
    "- Bilateral factor (38 CFR 4.26): {pair} combine to {combined}; 10% of {combined} is {factor}, added, not "
    "combined, for {total}, used as {value} [2]."
)
COMBINED_NO_BILATERAL = (
    "- The bilateral factor (38 CFR 4.26) does not apply: it needs a compensable rating (10% or more) of each "
    "side, and a 0% side does not qualify [2]."
)
COMBINED_STEP = "- {value} and {rating} combine to {combined}."
COMBINED_ZERO = "- A 0% rating does not change the combined value."
COMBINED_ROUND = (
    "- {value} is converted to the nearest number divisible by 10, values ending in 5 going up: {rating}% [1]."
)
COMBINED_BELIEF = "So {ratings} give {article} {rating}% combined rating, not {believed}."
# Regulation chunks cited: the best-retrieved ones, at most this many for each section.
CITED_PER_SECTION = 1
_NUMBER_RE = re.compile(r"(?<![\d.])\d{1,3}(?![\d.]\d)")


def asks_combined(state: AnswerState) -> bool:
    return combined_question_parse(text=state.text) is not None


def combined(state: AnswerState) -> AnswerState:
    """Answer "I have 50 and 30, what is my combined rating" with the table's arithmetic, steps shown."""
    asked = combined_question_parse(text=state.text)
    result = combined_rating(ratings=list(asked.ratings), bilateral=list(asked.bilateral))
    sections = [CFR_4_25_URL_SUFFIX] + ([CFR_4_26_URL_SUFFIX] if result.bilateral or asked.bilateral else [])
    cited = [_regulation_chunks(state, suffix, _numbers(result)) for suffix in sections]
    if not all(cited):
        return replace(state, decision="no_regulation_source")
    citations, edges = [], []
    for number, (chunk, source_id) in enumerate((pair for pairs in cited for pair in pairs), start=1):
        citations.append({"number": number, "chunk_id": chunk.entry_id, "url": chunk.url, "title": chunk.title,
                          "quote": chunk.content[:300]})
        edges.append((chunk.chunk_id, source_id, number))
    reply = Reply(answer=combined_answer(asked=asked, result=result), model=CALCULATOR_MODEL,
                  routing_reason="combined_ratings", verification=clean_verification(), citations=tuple(citations),
                  cited=tuple(edges), confidence=1.0)
    return replace(state, reply=reply, decision=f"{result.combined_value}->{result.rating}")


# ---- whether the asker's ratings meet TDIU's percentages ----

TDIU_MODEL = "calculator (38 CFR 4.16)"
# The chunks of 38 CFR 4.16's page cited as [1], [2] and [3] by verification.rating_tests.tdiu_answer, told by their words.
_TDIU_CITED = ("two or more service-connected disabilities", "one or both upper extremities", "4.16(b)")


def asks_tdiu(state: AnswerState) -> bool:
    return tdiu_ratings_parse(text=state.text) is not None


def tdiu(state: AnswerState) -> AnswerState:
    """Answer "PTSD 30, back 30, knee 20, can I still get unemployability" by applying 38 CFR 4.16(a) to the
    figures (combined by 4.25's table), and say what remains when they fall short."""
    check = tdiu_check(ratings=tdiu_ratings_parse(text=state.text))
    page = _regulation_chunks(state, CFR_4_16_URL_SUFFIX, set(), limit=None)
    cited = [next((pair for pair in page if marker in pair[0].content), None) for marker in _TDIU_CITED]
    if not all(cited):
        return replace(state, decision="no_regulation_source")
    reply = _worked_out(tdiu_answer(check=check), cited, model=TDIU_MODEL, routing_reason="tdiu_percentages")
    return replace(state, reply=reply, decision=f"{'met' if check.met else 'not_met'}:{check.combined}")


def _worked_out(answer: str, cited: list[tuple[SourceChunk, int]], *, model: str, routing_reason: str,
                dated: bool = False) -> Reply:
    """The reply of a rule worked out in code: ``cited[n - 1]`` is the source of marker [n]; those the answer does not
    use are left out (ratings that meet TDIU's test cite [1] only)."""
    used = sorted({int(n) for n in CITATION_MARKER_RE.findall(answer)})
    # The sources used are numbered from 1 in order ("bends fully" left out, a knee's extension alone cites [1]); two
    # markers whose words one chunk holds are one source, one number.
    first = {}
    for n in used:
        first.setdefault(cited[n - 1][0].chunk_id, n)
    renumber = {n: i for i, n in enumerate(sorted(first.values()), start=1)}
    renumber |= {n: renumber[first[cited[n - 1][0].chunk_id]] for n in used}
    answer = CITATION_MARKER_RE.sub(lambda m: f"[{renumber[int(m.group(1))]}]", answer)
    numbered = [(renumber[n], *cited[n - 1]) for n in sorted(first.values())]
    citations = tuple({"number": n, "chunk_id": c.entry_id, "url": c.url, "title": c.title, "quote": c.content[:300]}
                      for n, c, _ in numbered)
    return Reply(answer=answer, model=model, routing_reason=routing_reason, verification=clean_verification(),
                 citations=citations, cited=tuple((c.chunk_id, source_id, n) for n, c, source_id in numbered),
                 confidence=1.0, dated=dated)


# ---- whether a decision review's year is still open ----

REVIEW_WINDOW_MODEL = "calculator (decision review deadlines)"


def asks_review_window(state: AnswerState) -> bool:
    return review_window_parse(text=state.text, today=datetime.date.today()) is not None


def review_window(state: AnswerState) -> AnswerState:
    """Answer "decision letter dated Nov 5 2025, can I still do a higher level review" with the date worked out."""
    today = datetime.date.today()
    window = review_window_parse(text=state.text, today=today)
    # Said against today ("95 days from today"): never served again from the cache.
    return _worked_out_step(state, review_window_answer(window=window, today=today),
                            ((DECISION_REVIEWS_URL_SUFFIX, "within one year from the date on the decision letter"),
                             (MISSED_DEADLINE_URL_SUFFIX, "no longer request a Higher-Level Review")),
                            model=REVIEW_WINDOW_MODEL, routing_reason="review_window",
                            decision=f"{'open' if window.open else 'closed'}:{window.closes.isoformat()}", dated=True)


# ---- a first claim's effective date from the asker's separation and filing dates ----

EFFECTIVE_DATE_MODEL = "calculator (38 CFR 3.400(b), 3.31)"


def asks_effective_date(state: AnswerState) -> bool:
    return effective_date_parse(text=state.text) is not None


def effective_date(state: AnswerState) -> AnswerState:
    """Answer "got out in August 2024, filed in June 2025, when does my pay start from" with the one-year rule applied
    to the dates, and the month payments start."""
    found = effective_date_parse(text=state.text)
    return _worked_out_step(state, effective_date_answer(found=found),
                            ((EFFECTIVE_DATE_URL_SUFFIX, "within one year after you leave active service"),
                             (PAYMENT_START_URL_SUFFIX, "first day of the calendar month")),
                            model=EFFECTIVE_DATE_MODEL, routing_reason="effective_date",
                            decision="within_year" if found.within_year else "after_year")


# ---- a knee's measured motion against DC 5260 and 5261 ----

KNEE_MOTION_MODEL = "calculator (38 CFR 4.71a, DC 5260 and 5261)"
# The chunks of 38 CFR 4.71a's page cited as [1], [2] and [3] by knee_motion_answer, told by their words.
_KNEE_CITED = tuple((KNEE_URL_SUFFIX, words) for words in ("DC 5260, limitation of flexion",
                                                           "DC 5261, limitation of extension", "VAOPGCPREC 9-2004"))


def asks_knee_motion(state: AnswerState) -> bool:
    return knee_motion_parse(text=state.text) is not None


def knee_motion(state: AnswerState) -> AnswerState:
    """Answer "my knee bends to 50 degrees and straightens all the way, what rating" with each measurement read against
    its own table (it led with the other table's row nearest the figure)."""
    motion = knee_motion_parse(text=state.text)
    return _worked_out_step(state, knee_motion_answer(motion=motion), _KNEE_CITED, model=KNEE_MOTION_MODEL,
                            routing_reason="knee_motion", decision=f"flexion:{motion.flexion},extension:{motion.extension}")


# ---- whether a rated veteran pays the home loan funding fee ----

FUNDING_FEE_MODEL = "rule (VA funding fee exemption)"
# The sentences cited as [1], [2] and [3] by funding_fee_answer, each from its page.
_FEE_CITED = ((FEE_URL_SUFFIX, "Veterans receiving VA disability compensation and certain others are exempt"),
              (FEE_URL_SUFFIX, "pay no funding fee on any of these loan types"),
              (COE_URL_SUFFIX, "whether you are exempt from the funding fee"))


def asks_funding_fee(state: AnswerState) -> bool:
    return funding_fee_rating_parse(text=state.text) is not None


def funding_fee(state: AnswerState) -> AnswerState:
    """Answer "I'm 10% service connected, do I have to pay the funding fee" with the exemption, not the fee table."""
    rating = funding_fee_rating_parse(text=state.text)
    return _worked_out_step(state, funding_fee_answer(rating=rating), _FEE_CITED, model=FUNDING_FEE_MODEL,
                            routing_reason="funding_fee", decision=f"exempt:{rating}")


# ---- the health care priority group a rating places a veteran in ----

PRIORITY_GROUP_MODEL = "rule (VA health care priority groups)"


def asks_priority_group(state: AnswerState) -> bool:
    return priority_group_rating_parse(text=state.text) is not None


def priority_group(state: AnswerState) -> AnswerState:
    """Answer "my rating went up to 40%, what priority group am I in" with the group that rating places the asker in
    (it led with the income groups 7 and 8)."""
    rating = priority_group_rating_parse(text=state.text)
    group, words = priority_group_of(rating=rating)
    cited = ((PRIORITY_URL_SUFFIX, words), (PRIORITY_URL_SUFFIX, FREE_WORDS))
    if group == 1:
        cited += ((PRIORITY_URL_SUFFIX, NO_COPAYS_WORDS),)
    return _worked_out_step(state, priority_group_answer(rating=rating), cited, model=PRIORITY_GROUP_MODEL,
                            routing_reason="priority_group", decision=f"group:{group}")


# ---- whether the ratings beside a 100% meet SMC-S ----

SMC_S_MODEL = "calculator (38 CFR 3.350(i))"
_SMC_S_CITED = "independently ratable at 60%"


def asks_smc_s(state: AnswerState) -> bool:
    return smc_s_ratings_parse(text=state.text) is not None


def smc_s(state: AnswerState) -> AnswerState:
    """Answer "I'm 100% for PTSD, migraines rated 50 and my back is 20, any extra payment" with SMC-S's test applied:
    the others combine by 4.25's table to 60% or more."""
    check = smc_s_check(others=smc_s_ratings_parse(text=state.text))
    page = _regulation_chunks(state, CFR_3_350_URL_SUFFIX, set(), limit=None)
    found = next((pair for pair in page if _SMC_S_CITED in pair[0].content), None)
    if found is None:
        return replace(state, decision="no_regulation_source")
    reply = _worked_out(smc_s_answer(check=check), [found], model=SMC_S_MODEL, routing_reason="smc_s_percentages")
    return replace(state, reply=reply, decision=f"{'met' if check.met else 'not_met'}:{check.combined}")


def combined_answer(*, asked: CombinedQuestion, result: CombinedRating) -> str:
    """The answer text: the rating first, then each step of the table, then the rounding."""
    lines = [COMBINED_LEAD.format(rating=result.rating)]
    if bilateral := result.bilateral:
        lines.append(COMBINED_BILATERAL.format(
            pair=" and ".join(map(str, bilateral.ratings)), combined=bilateral.combined,
            factor=f"{bilateral.factor.normalize():f}", total=f"{bilateral.combined + bilateral.factor:f}",
            value=bilateral.value))
    elif asked.bilateral:  # one side rated 0%
        lines.append(COMBINED_NO_BILATERAL)
    if 0 in result.ratings:
        lines.append(COMBINED_ZERO)
    lines += [COMBINED_STEP.format(value=s.value, rating=s.rating, combined=s.combined) for s in result.steps]
    lines.append(COMBINED_ROUND.format(value=result.combined_value, rating=result.rating))
    text = lines[0] + "\n\n" + "\n".join(lines[1:])
    if asked.believed is not None and asked.believed != result.rating:
        ratings = " and ".join(map(str, result.ratings))
        article = "an" if str(result.rating).startswith("8") else "a"  # "an 80%", said "an eighty"
        text += "\n\n" + COMBINED_BELIEF.format(ratings=ratings, article=article, rating=result.rating,
                                                 believed=asked.believed)
    return text


def _regulation_chunks(state: AnswerState, url_suffix: str, numbers: set[str], *,
                       limit: int | None = CITED_PER_SECTION) -> list[tuple[SourceChunk, int]]:
    """The chunks of the regulation's page (with their source ids) that show most of the answer's numbers,
    the best retrieved first among equals; only retrieved ones when retrieval was kept to a topic or source."""
    rank = {c.chunk_id: c.number for c in state.chunks}
    if state.restriction:
        page = [(c, state.chunk_sources[c.chunk_id]) for c in state.chunks if c.url.rstrip("/").endswith(url_suffix)]
    else:
        page = [(SourceChunk(number=0, chunk_id=h.chunk_id, entry_id=h.entry_id, title=h.title, url=h.url,
                             content=h.content, score=0.0), h.source_id)
                for h in kb.source_chunks_get(url_suffix=url_suffix)]

    def order(pair: tuple[SourceChunk, int]) -> tuple[int, int]:
        chunk = pair[0]
        return -len(numbers & set(_NUMBER_RE.findall(chunk.content))), rank.get(chunk.chunk_id, len(rank) + 1)

    return sorted(page, key=order)[:limit]


def _worked_out_step(state: AnswerState, answer: str, wanted: tuple[tuple[str, str], ...], *, model: str,
                     routing_reason: str, decision: str, dated: bool = False) -> AnswerState:
    """The state after a rule worked out in code: its reply citing ``wanted``'s sources, or, when one of them is
    missing from the corpus, no reply (the question goes on to retrieval's answer)."""
    cited = _marked_sources(state, wanted)
    if cited is None:
        return replace(state, decision="no_source")
    reply = _worked_out(answer, cited, model=model, routing_reason=routing_reason, dated=dated)
    return replace(state, reply=reply, decision=decision)


def _marked_sources(state: AnswerState, wanted: tuple[tuple[str, str], ...]) -> list[tuple[SourceChunk, int]] | None:
    """For each (page's URL suffix, words), the first chunk of that page holding the words: the source of marker [n]
    of a worked-out answer is ``wanted[n - 1]``'s, each page read once; None when one is missing (the corpus
    changed)."""
    pages = {suffix: _regulation_chunks(state, suffix, set(), limit=None) for suffix in dict.fromkeys(s for s, _ in wanted)}
    found = [next((pair for pair in pages[suffix] if words in pair[0].content), None) for suffix, words in wanted]
    return found if all(found) else None


def _numbers(result: CombinedRating) -> set[str]:
    values = [*result.ratings, result.combined_value, result.rating]
    values += [n for step in result.steps for n in (step.value, step.rating, step.combined)]
    if result.bilateral:
        values += [result.bilateral.combined, result.bilateral.value]
    return {str(v) for v in values}


# ---- what one rating pays ----

# VA's page of monthly compensation for a veteran alone; its chunk lists one "70% — $1,808.45" row per level.
PAY_RATES_URL_SUFFIX = "/disability/compensation-rates/veteran-rates/"
_LEVEL = r"(?<![\d.$])(?:100|[1-9]0|0)\s?(?:%|percent\b|per cent\b)"
# Asking what a level pays: "how much is 70 percent", "what does 50% pay", "the 2025 rate for 100 percent",
# "70 percent per month". A level that is only the asker's context ("I'm rated 50%. Do I pay copays?") is not.
_PAY_QUESTION_RE = re.compile(
    rf"\bhow much (?:money )?(?:is|does|do|will|would|for|can|are|was|i get for|you get for)?\b[^.?!]{{0,40}}?{_LEVEL}"
    rf"|{_LEVEL}(?: rating)?\s+(?:pay|pays|worth)(?:\s+(?:a|per|each) month)?\s*(?:\?|$)"
    rf"|\b(?:rate|amount|payment|compensation) (?:for|of|at) (?:a |an )?{_LEVEL}"
    rf"|{_LEVEL}[^.?!]{{0,20}}\b(?:per month|a month|monthly)\b"
    # "Rated 60%, my check is like 1435, am I getting shorted": what the level pays is asked.
    rf"|{_LEVEL}[^.?!,]{{0,20}}[,.]?\s*(?:and\s+)?my (?:monthly )?(?:check|payment|deposit|va pay)\b"
    # "Rated 60% single, how much is my monthly check": the level said first, what it pays asked after.
    rf"|{_LEVEL}[^.?!]{{0,30}}\bhow much (?:is|will|would|do i get|does it pay)\b[^.?!]{{0,25}}"
    rf"\b(?:check|payment|deposit|a month|monthly|per month|each month)\b",
    re.IGNORECASE,
)
# Other amounts the rates table does not give: back pay, SMC, TDIU, DIC, pension, copays, incarceration.
_OTHER_AMOUNT_RE = re.compile(r"\b(?:back ?pay|retro\w*|co-?pays?|smc|special monthly|tdiu|unemployability|dic|"
                              r"pension|incarcerat\w*|jail|prison|extra|additional|more for)\b", re.IGNORECASE)
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+")


def pay_level_asked(text: str) -> int | None:
    """The one rating level a "how much does it pay" question asks about, or None."""
    levels = {level for level in levels_asked(text) if level % 10 == 0}
    if len(levels) != 1 or not _PAY_QUESTION_RE.search(text) or _OTHER_AMOUNT_RE.search(text):
        return None
    return levels.pop()


def asks_pay_rate(state: AnswerState) -> bool:
    return combined_question_parse(text=state.text) is None and pay_level_asked(state.text) is not None


def pay_rate(state: AnswerState) -> AnswerState:
    """Answer "how much is a 70 percent rating a month" with that level's row of VA's rates table, its lead
    and what the table says about family and taxes, word for word and cited. A question with a spouse or
    children gets the note that VA pays more for a family from 30 percent up first, then the row, whose lead
    says it is a veteran alone's (the knowledge base holds no family table to read a larger figure from)."""
    level = pay_level_asked(state.text)
    if state.restriction:
        pages = [(c.chunk_id, c.entry_id, c.title, c.url, c.content, state.chunk_sources[c.chunk_id])
                 for c in state.chunks if c.url.rstrip("/").endswith(PAY_RATES_URL_SUFFIX.rstrip("/"))]
    else:
        pages = [(h.chunk_id, h.entry_id, h.title, h.url, h.content, h.source_id)
                 for h in kb.source_chunks_get(url_suffix=PAY_RATES_URL_SUFFIX)]
    for chunk_id, entry_id, title, url, content, source_id in pages:
        lines = [line.strip() for line in content.splitlines() if line.strip()]
        row = next((line for line in lines if re.match(rf"{level}% — \$", line)), None)
        notes = [s for s in _SENTENCE_RE.split(lines[-1]) if s] if lines else []
        if level == 0:
            zero = [s for s in notes if re.search(r"\b0 percent\b", s)]
            if not zero:
                continue
            text = " ".join(f"{s[:-1]} [1]." for s in zero)
        elif row is None or not lines[0].endswith(":"):
            continue
        else:
            text = f"{lines[0][:-1]} [1]:\n- {row} [1]"
            kept = [s for s in notes if not re.search(r"\b0 percent\b", s)]
            # "100% with a spouse and 2 kids": the row is not the asker's amount, so the table's note on a family's
            # higher amounts is said first.
            family = [s for s in kept if FAMILY_RATES_RE.search(s)] if level >= 30 and OWN_FAMILY_RE.search(state.text) \
                else []
            if family:
                text = " ".join(f"{s[:-1]} [1]." for s in family) + "\n\n" + text
                kept = [s for s in kept if s not in family]
            if kept:
                text += "\n\n" + " ".join(f"{s[:-1]} [1]." for s in kept)
        citation = {"number": 1, "chunk_id": entry_id, "url": url, "title": title, "quote": content[:300]}
        reply = Reply(answer=text, model=EXTRACTIVE, routing_reason="pay_rate",
                      verification=clean_verification(), citations=(citation,), cited=((chunk_id, source_id, 1),),
                      confidence=1.0)
        return replace(state, reply=reply, decision=f"{level}%")
    return replace(state, decision="no_rates_source")


# ---- the asker's own record ----

GUIDANCE_MODEL = "guidance"


def asks_own_record(state: AnswerState) -> bool:
    # "I have 50 and 30, what is my combined rating" gives the ratings: a calculation, not a record lookup.
    return own_record_kind(question=state.text) is not None and combined_question_parse(text=state.text) is None


def own_record(state: AnswerState) -> AnswerState:
    """Say where the asker's own claim status, rating, payments or documents can be seen: only VA holds them."""
    kind = own_record_kind(question=state.text)
    text, citations, edges = _pages_cited(own_record_answer(kind=kind), URL_SUFFIXES)
    reply = Reply(answer=text, model=GUIDANCE_MODEL, routing_reason=f"own_record:{kind}",
                  verification=clean_verification(), citations=citations, cited=edges, confidence=1.0)
    return replace(state, reply=reply, decision=kind)


# ---- another agency's documents ----

def asks_non_va_document(state: AnswerState) -> bool:
    document = non_va_document_find(question=state.text, documents=kb.non_va_documents_get())
    return document is not None and asks_about_document(question=state.text, document=document)


def non_va_document(state: AnswerState) -> AnswerState:
    """Say what a DD-214, SF-180, NGB-22, ... is, who issues it and how to get it: not an unknown VA form."""
    document = non_va_document_find(question=state.text, documents=kb.non_va_documents_get())
    text, citations, edges = _pages_cited(non_va_document_answer(document=document), {1: document.url})
    reply = Reply(answer=text, model=GUIDANCE_MODEL, routing_reason="non_va_document",
                  verification=clean_verification(), citations=citations, cited=edges, confidence=1.0)
    return replace(state, reply=reply, decision=document.number)


def _facts_missing(text: str, hit) -> int:
    chunk = SourceChunk(number=1, chunk_id=hit.chunk_id, entry_id=hit.entry_id, title=hit.title, url=hit.url,
                        content=hit.content, score=0.0)
    return len(facts_unsupported(text=CITATION_MARKER_RE.sub("", text), sources=[chunk], context=[chunk]))


def _pages_cited(text: str, pages: dict[int, str]):
    """Cite marker [n] of ``text`` to the chunk of page ``pages[n]`` that states the facts (numbers, form
    numbers, codes) of the sentences citing it, and among those the one sharing most words with them; drop
    markers whose page is not in the knowledge base; number the rest 1..m."""
    chosen: dict[int, tuple[SourceChunk, int]] = {}
    for number, suffix in pages.items():
        citing = " ".join(sentence for sentence in text.split(". ") if f"[{number}]" in sentence)
        words = content_words(citing)
        found = [(h, (-_facts_missing(citing, h), len(words & content_words(h.content))))
                 for h in kb.source_chunks_get(url_suffix=suffix)]
        if found:
            best = max(found, key=lambda pair: pair[1])[0]
            chosen[number] = (SourceChunk(number=number, chunk_id=best.chunk_id, entry_id=best.entry_id,
                                          title=best.title, url=best.url, content=best.content, score=0.0),
                              best.source_id)
    order = [n for n in dict.fromkeys(int(m) for m in CITATION_MARKER_RE.findall(text)) if n in chosen]
    renumber = {old: new for new, old in enumerate(order, start=1)}

    def marker(match) -> str:
        new = renumber.get(int(match.group(1)))
        return f"[{new}]" if new else ""

    text = CITATION_MARKER_RE.sub(marker, text).replace(" .", ".")
    citations = tuple({"number": renumber[n], "chunk_id": chosen[n][0].entry_id, "url": chosen[n][0].url,
                       "title": chosen[n][0].title, "quote": chosen[n][0].content[:300]} for n in order)
    edges = tuple((chosen[n][0].chunk_id, chosen[n][1], renumber[n]) for n in order)
    return text, citations, edges
