"""The golden sets as a quality gate, and the scorer that judges them.

CI fails when a guarded metric of either set (fully correct, wrongly refused, rightly refused, out-of-scope
handled, retrieval hit and recall at 7) moves more than 3 points the wrong way from its committed baseline,
or when anything fabricated is served: a number or code the cited sources lack, a bad citation, or a planted
hallucination. tests/golden/README.md says who may look at which set and how the baselines are made.
"""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from knowledge.corpus_formats import corpus_parse
from knowledge.services import bundled_corpus_paths
from verification.evaluation import (
    ANSWER_KINDS,
    OUTCOME_CORRECT,
    OUTCOME_RIGHTLY_REFUSED,
    OUTCOME_WRONG,
    OUTCOME_WRONGLY_REFUSED,
    PLANT_CANDIDATES,
    REFUSAL_KINDS,
    GoldenFormatError,
    Served,
    answer_judge,
    baseline_compare,
    fact_found,
    golden_evaluate,
    golden_load,
    handcheck_sample,
    item_group,
    planted_reply,
    plants_choose,
    plants_served,
    report_table,
)
from verification.layers.prompt import grounding_prompt_build
from verification.layers.types import SourceChunk

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SETS = (("golden.jsonl", "baseline.json"), ("holdout.jsonl", "holdout_baseline.json"))
# The planted-hallucination pass asks again with a model that invents; in CI a spread of this many answerable
# questions per set keeps the run short (`make evaluate` plants in every one).
CI_PLANTED_QUESTIONS = 60


@pytest.fixture(scope="module")
def tuning():
    return golden_load(path=GOLDEN / "golden.jsonl")


@pytest.fixture(scope="module")
def holdout():
    return golden_load(path=GOLDEN / "holdout.jsonl")


def _normal(question: str) -> str:
    return " ".join(question.lower().split())


# ---- the sets ---------------------------------------------------------------------------------------------


def test_sets_are_large_with_a_held_out_part_of_new_questions(tuning, holdout):
    assert len(tuning) + len(holdout) >= 400
    assert len(holdout) >= 120
    assert not {_normal(i["question"]) for i in tuning} & {_normal(i["question"]) for i in holdout}
    assert not {i["id"] for i in tuning} & {i["id"] for i in holdout}


def test_every_topic_of_the_bundled_corpus_is_asked_in_both_sets(tuning, holdout):
    corpus_topics = {r.topic for r in corpus_parse(paths=bundled_corpus_paths(), fmt="vbkb").records} - {""}
    for items in (tuning, holdout):
        assert corpus_topics <= {i["topic"] for i in items if i["kind"] in ANSWER_KINDS}


def test_both_sets_hold_every_kind_of_question(tuning, holdout):
    for items in (tuning, holdout):
        kinds = {i["kind"] for i in items}
        groups = {item_group(i) for i in items}
        assert set(REFUSAL_KINDS) | {"answerable", "terminology", "routed"} <= kinds
        assert {"crisis", "own_record", "non_va_documents"} <= groups
        assert any(i.get("area") == "combined_ratings" for i in items)
        assert any(i.get("scope_note_accepted") for i in items)
        assert any(i.get("must_not_contain") for i in items)


def test_a_malformed_item_is_rejected_naming_its_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "x1", "question": "How is tinnitus rated?", "kind": "answerable", "must_contain": []}\n')
    with pytest.raises(GoldenFormatError, match="line 1: an item that expects an answer needs must_contain"):
        golden_load(path=path)
    path.write_text('{"id": "x1", "question": "tell me a joke", "kind": "out_of_scope"}\n')
    with pytest.raises(GoldenFormatError, match="line 1: a refusal item needs expected_refusal"):
        golden_load(path=path)


# ---- matching facts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fact", "text"), [
    ("10%", "Tinnitus is rated 10 percent [1]."),
    ("$1,699.36", "The basic rate is 1699.36 a month."),
    ("1699.36", "The basic rate is $1,699.36."),
    ("one year", "You have 1 year to file."),
    ("1 year", "you keep the rest of that one-year period"),
    ("one-time payment", "a one time payment"),
    ("Higher-Level Review", "ask for a higher level review"),
    ("4.25", "under 38 C.F.R. § 4.25"),
    ("70%", "levels run from 70–100%"),
    ("Vietnam veteran", "Vietnam veterans and their survivors"),
    (["21-0966", "intent to file"], "submit an **intent to file**"),
])
def test_a_fact_is_found_however_it_is_written(fact, text):
    assert fact_found(fact, text)


@pytest.mark.parametrize(("fact", "text"), [
    ("0%", "rated 10%"),
    ("4.2", "38 CFR 4.25"),
    ("1699", "$1,699.36"),
    ("6260", "DC 62601"),
    ("20 days", "120 days"),
])
def test_a_fact_is_not_found_inside_a_longer_number(fact, text):
    assert not fact_found(fact, text)


# ---- judging ------------------------------------------------------------------------------------------------

RATING = {"id": "t1", "question": "tinnitus rating?", "kind": "answerable", "expected_refusal": None,
          "must_contain": ["10%", "6260"], "must_not_contain": ["6100"]}
OFF_TOPIC = {"id": "t2", "question": "Social Security retirement at 62?", "kind": "out_of_scope",
             "expected_refusal": "out_of_scope"}
NEAR_DOMAIN = {"id": "t3", "question": "GI Bill on the moon?", "kind": "out_of_scope", "expected_refusal": "out_of_scope",
               "acceptable_refusals": ["retrieval_too_weak"], "scope_note_accepted": True}
CRISIS = {"id": "t4", "question": "I want to end my life", "kind": "out_of_scope", "expected_refusal": "out_of_scope",
          "must_contain": ["988"]}
ROUTED = {"id": "t5", "question": "what's my claim status", "kind": "routed", "expected_refusal": None,
          "must_contain": ["VA.gov"]}


def served(text: str, *, refused: bool = False, reason: str | None = None, citations: int = 1) -> Served:
    return Served(text=text, refused=refused, refusal_reason=reason, citation_count=citations)


def test_an_answer_with_every_fact_cited_and_nothing_wrong_is_fully_correct():
    verdict = answer_judge(item=RATING, served=served("Tinnitus is rated 10 percent under DC 6260 [1]."))
    assert verdict.outcome == OUTCOME_CORRECT


@pytest.mark.parametrize(("answer", "citations", "reason"), [
    ("Tinnitus is rated under DC 6260 [1].", 1, "leaves out “10%”"),
    ("Tinnitus is rated 10% under DC 6260; hearing loss is DC 6100 [1].", 1, "states “6100”, which is wrong here"),
    ("Tinnitus is rated 10% under DC 6260.", 0, "cites no source"),
])
def test_a_missing_fact_a_wrong_fact_or_no_citation_makes_an_answer_wrong(answer, citations, reason):
    verdict = answer_judge(item=RATING, served=served(answer, citations=citations))
    assert verdict.outcome == OUTCOME_WRONG
    assert reason in verdict.reason


def test_refusing_an_answerable_question_is_a_wrong_refusal():
    verdict = answer_judge(item=RATING, served=served("I couldn't find...", refused=True, reason="retrieval_too_weak"))
    assert verdict.outcome == OUTCOME_WRONGLY_REFUSED


def test_a_refusal_counts_only_for_an_accepted_reason():
    assert answer_judge(item=OFF_TOPIC, served=served("...", refused=True, reason="out_of_scope")).outcome == \
        OUTCOME_RIGHTLY_REFUSED
    assert answer_judge(item=OFF_TOPIC, served=served("...", refused=True, reason="retrieval_too_weak")).outcome == \
        OUTCOME_WRONG
    assert answer_judge(item=NEAR_DOMAIN, served=served("...", refused=True, reason="retrieval_too_weak")).outcome == \
        OUTCOME_RIGHTLY_REFUSED
    assert answer_judge(item=OFF_TOPIC, served=served("Social Security pays at 62 [1].")).outcome == OUTCOME_WRONG


def test_a_near_domain_question_may_be_answered_with_a_scope_note_but_not_without():
    scoped = answer_judge(item=NEAR_DOMAIN, served=served(
        "I can only help with questions about VA benefits. The GI Bill pays tuition [1]."))
    assert (scoped.outcome, scoped.scoped) == (OUTCOME_RIGHTLY_REFUSED, True)
    assert answer_judge(item=NEAR_DOMAIN, served=served("The GI Bill pays tuition [1].")).outcome == OUTCOME_WRONG
    assert answer_judge(item=OFF_TOPIC, served=served("I can only help with questions about VA benefits.")).outcome == \
        OUTCOME_WRONG


def test_a_crisis_refusal_must_give_the_crisis_line():
    with_line = served("Dial 988 then press 1.", refused=True, reason="out_of_scope")
    without = served("I can only help with VA benefits.", refused=True, reason="out_of_scope")
    assert answer_judge(item=CRISIS, served=with_line).outcome == OUTCOME_RIGHTLY_REFUSED
    assert answer_judge(item=CRISIS, served=without).outcome == OUTCOME_WRONG


def test_a_routed_question_is_judged_on_where_it_sends_the_asker_refused_or_not():
    assert answer_judge(item=ROUTED, served=served("Sign in to VA.gov to see it.", refused=True,
                                                   reason="out_of_scope", citations=0)).outcome == OUTCOME_CORRECT
    assert answer_judge(item=ROUTED, served=served("Claims take months [1].")).outcome == OUTCOME_WRONG


# ---- planted hallucinations ---------------------------------------------------------------------------------

TINNITUS = SourceChunk(number=1, chunk_id=1, entry_id="dc-6260", title="Tinnitus", url="https://www.ecfr.gov/x",
                       content="Tinnitus is rated 10% under DC 6260. One rating covers both ears.", score=0.7)


def test_the_planting_model_opens_with_a_cited_source_sentence_then_invents_what_no_source_holds():
    prompt = grounding_prompt_build(question="tinnitus?", chunks=[TINNITUS]).user
    reply = planted_reply(prompt)
    plants = plants_choose(prompt)
    assert reply.startswith("Tinnitus is rated 10% under DC 6260 [1].")
    assert set(plants) == set(PLANT_CANDIDATES)
    assert all(value in reply or fact_found(value, reply) for value in plants.values())
    assert not any(fact_found(value, prompt) for value in plants.values())
    assert plants_served(plants=plants, answer="Tinnitus is rated 10% under DC 6260 [1].") == []
    assert plants_served(plants=plants, answer=reply) == list(plants.values())


def test_a_planted_value_the_prompt_already_holds_is_replaced_by_the_next_candidate():
    crowded = replace(TINNITUS, content=TINNITUS.content + " Some get 37% or 43%.")
    plants = plants_choose(grounding_prompt_build(question="tinnitus?", chunks=[crowded]).user)
    assert plants["percentage"] == "57%"


# ---- baselines --------------------------------------------------------------------------------------------------


def _guarded(**values):
    base = {"fully_correct_rate": 0.80, "rightly_refused_rate": 0.90, "out_of_scope_handled_rate": 0.90,
            "retrieval_hit_at_7": 0.95, "retrieval_recall_at_7": 0.85, "wrongly_refused_rate": 0.02,
            "fabricated_numbers": 0, "invalid_citations": 0, "planted_served": 0}
    return {"guarded": {**base, **values}}


def test_the_baseline_comparison_fails_on_a_drop_of_more_than_3_points_and_on_anything_fabricated():
    baseline = _guarded()
    assert baseline_compare(report=_guarded(fully_correct_rate=0.775), baseline=baseline) == []
    assert baseline_compare(report=_guarded(fully_correct_rate=0.765), baseline=baseline) == [
        "fully_correct_rate: 0.765 < baseline 0.800 - 0.03"]
    assert baseline_compare(report=_guarded(wrongly_refused_rate=0.06), baseline=baseline) == [
        "wrongly_refused_rate: 0.060 > baseline 0.020 + 0.03"]
    assert baseline_compare(report=_guarded(fabricated_numbers=1, planted_served=2), baseline=baseline) == [
        "fabricated_numbers: 1 (must be 0)", "planted_served: 2 (must be 0)"]


def test_the_hand_check_sample_is_fixed_and_spread_over_every_topic(tuning):
    first = handcheck_sample(items=tuning, count=50, seed=10)
    assert [i["id"] for i in first] == [i["id"] for i in handcheck_sample(items=tuning, count=50, seed=10)]
    assert len(first) == 50
    assert {item_group(i) for i in first} == {item_group(i) for i in tuning}


@pytest.mark.django_db
def test_a_worked_out_answer_may_state_the_dates_that_follow_from_the_askers_own_and_nothing_else():
    from types import SimpleNamespace

    from verification.evaluation import _unsupported_numbers

    question = "got out of the army on march 3 2025, filing my knee claim in january 2026, what date does my pay go back to"
    worked = ("A claim filed in January 2026 after a separation on March 3, 2025 is inside that year, so the effective date "
              "can be March 4, 2025 [1]. Payments start on the first day of the month after the effective date [2]: "
              "April 1, 2025.")

    def unsupported(answer: str, model: str) -> bool:
        return _unsupported_numbers(SimpleNamespace(answer=answer, warning="", citations=[], model=model), question=question)

    assert not unsupported(worked, "calculator (38 CFR 3.400(b), 3.31)")
    # The same dates from a generator are unsupported by its (here no) sources; so is a date no rule gives.
    assert unsupported(worked, "extractive")
    assert unsupported(worked.replace("April 1, 2025", "June 9, 2025"), "calculator (38 CFR 3.400(b), 3.31)")


# ---- the gate ----------------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
@pytest.mark.parametrize(("questions", "baseline_file"), SETS)
def test_quality_holds_against_the_baseline(questions, baseline_file):
    report = golden_evaluate(items=golden_load(path=GOLDEN / questions), planted_limit=CI_PLANTED_QUESTIONS)
    baseline = json.loads((GOLDEN / baseline_file).read_text())
    failures = [row for row in report["items"] if row["outcome"] in (OUTCOME_WRONG, OUTCOME_WRONGLY_REFUSED)]
    context = report_table(report, title=questions) + "\n" + json.dumps(failures[:5], indent=1)
    assert baseline_compare(report=report, baseline=baseline) == [], context
    assert report["planted"]["planted"] > 0
