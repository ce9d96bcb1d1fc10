from dataclasses import replace

import pytest

from tests.verification.layers.sources import (
    COMPENSATION_RATES,
    HIGHER_LEVEL_REVIEW,
    PACT_ACT,
    PTSD,
    TINNITUS,
)
from verification.layers.relevance import relevance_filter

# The seed whitepaper's values; callers pass calibrated ones.
WHITEPAPER = {"theta_min": 0.45, "top_k": 7, "weak_threshold": 0.55}


def test_keeps_chunks_at_or_above_theta_in_score_order_renumbered():
    low = replace(PACT_ACT, number=1, chunk_id=1, score=0.45)
    high = replace(TINNITUS, number=2, chunk_id=2, score=0.71)
    below = replace(HIGHER_LEVEL_REVIEW, number=3, chunk_id=3, score=0.4499)

    result = relevance_filter(chunks=[low, high, below], **WHITEPAPER)

    assert [chunk.chunk_id for chunk in result.kept] == [2, 1]
    assert [chunk.number for chunk in result.kept] == [1, 2]
    assert result.kept[0].content == TINNITUS.content
    assert result.best_score == 0.71
    assert result.weak_retrieval is False
    assert result.refuse is False


def test_keeps_at_most_top_k():
    chunks = [replace(TINNITUS, chunk_id=index, score=0.5 + index / 100) for index in range(10)]

    result = relevance_filter(chunks=chunks, theta_min=0.45, top_k=7, weak_threshold=0.55)

    assert len(result.kept) == 7
    assert [chunk.chunk_id for chunk in result.kept] == [9, 8, 7, 6, 5, 4, 3]
    assert [chunk.number for chunk in result.kept] == list(range(1, 8))


def test_weak_when_best_below_weak_threshold_but_still_answers():
    result = relevance_filter(chunks=[replace(PTSD, score=0.50)], **WHITEPAPER)

    assert result.weak_retrieval is True
    assert result.refuse is False
    assert len(result.kept) == 1


def test_refuses_when_nothing_reaches_theta_and_reports_how_close_it_came():
    chunks = [replace(COMPENSATION_RATES, score=0.31), replace(PACT_ACT, score=0.44)]

    result = relevance_filter(chunks=chunks, **WHITEPAPER)

    assert result.kept == ()
    assert result.refuse is True
    assert result.weak_retrieval is True
    assert result.best_score == 0.44


def test_no_chunks_refuses_with_zero_best_score():
    result = relevance_filter(chunks=[], **WHITEPAPER)

    assert result == type(result)(kept=(), best_score=0.0, weak_retrieval=True, refuse=True)


def test_same_chunk_from_vector_and_full_text_counts_once_at_its_best_score():
    vector_hit = replace(TINNITUS, score=0.61)
    text_hit = replace(TINNITUS, score=0.66)

    result = relevance_filter(chunks=[vector_hit, text_hit, HIGHER_LEVEL_REVIEW], **WHITEPAPER)

    assert [chunk.chunk_id for chunk in result.kept] == [TINNITUS.chunk_id, HIGHER_LEVEL_REVIEW.chunk_id]
    assert result.kept[0].score == 0.66


def test_equal_scores_keep_retrieval_order_and_nan_scores_are_ignored():
    first = replace(TINNITUS, chunk_id=1, score=0.6)
    second = replace(PACT_ACT, chunk_id=2, score=0.6)
    broken = replace(PTSD, chunk_id=3, score=float("nan"))

    result = relevance_filter(chunks=[first, broken, second], **WHITEPAPER)

    assert [chunk.chunk_id for chunk in result.kept] == [1, 2]


def test_calibrated_thresholds_are_the_callers():
    result = relevance_filter(chunks=[replace(TINNITUS, score=0.40)], theta_min=0.35, top_k=3, weak_threshold=0.42)

    assert result.refuse is False
    assert result.weak_retrieval is True


def test_top_k_must_be_positive():
    with pytest.raises(ValueError):
        relevance_filter(chunks=[TINNITUS], theta_min=0.45, top_k=0, weak_threshold=0.55)


def test_result_is_frozen_and_serialisable():
    result = relevance_filter(chunks=[TINNITUS], **WHITEPAPER)

    with pytest.raises(AttributeError):
        result.refuse = True  # type: ignore[misc]
    assert result.to_dict() == {"kept": [703], "best_score": 0.71, "weak_retrieval": False, "refuse": False}


def test_a_top_full_text_hit_just_under_theta_joins_an_answerable_question():
    best = replace(TINNITUS, number=1, chunk_id=1, score=0.50)
    lexical = replace(PTSD, number=2, chunk_id=2, score=0.40, lexical_rank=1)
    dense_only = replace(PACT_ACT, number=3, chunk_id=3, score=0.40)
    far = replace(HIGHER_LEVEL_REVIEW, number=4, chunk_id=4, score=0.30, lexical_rank=2)
    result = relevance_filter(chunks=[best, lexical, dense_only, far], **WHITEPAPER)
    assert [chunk.chunk_id for chunk in result.kept] == [1, 2]


def test_a_top_full_text_hit_just_under_theta_makes_a_question_answerable_alone():
    agreed = replace(PTSD, number=1, chunk_id=1, score=0.40, lexical_rank=3)
    result = relevance_filter(chunks=[agreed], **WHITEPAPER)
    assert not result.refuse and [c.chunk_id for c in result.kept] == [1] and result.weak_retrieval


def test_dense_hits_under_theta_or_full_text_hits_far_under_it_are_refused():
    dense_only = replace(PTSD, number=1, chunk_id=1, score=0.44)
    far_lexical = replace(TINNITUS, number=2, chunk_id=2, score=0.30, lexical_rank=1)
    low_lexical_rank = replace(PACT_ACT, number=3, chunk_id=3, score=0.44, lexical_rank=4)
    result = relevance_filter(chunks=[dense_only, far_lexical, low_lexical_rank], **WHITEPAPER)
    assert result.refuse and not result.kept


def test_the_chunk_naming_a_form_the_question_names_is_kept_whatever_its_score():
    # "What is form 22-0803": the page naming it scores 0.04 against a bare number; it is kept, after the others.
    close = [replace(PTSD, number=n, chunk_id=n, score=0.6 - n / 100) for n in range(1, 8)]
    named = replace(PACT_ACT, number=8, chunk_id=8, score=0.04, entity_rank=1)
    second = replace(TINNITUS, number=9, chunk_id=9, score=0.05, entity_rank=2)
    result = relevance_filter(chunks=[*close, named, second], **WHITEPAPER)
    assert [chunk.chunk_id for chunk in result.kept] == [1, 2, 3, 4, 5, 6, 8]
    assert result.kept[-1].number == 7
    # With nothing else kept, the graph's first two chunks answer, weakly ("the difference between 20-0995 and
    # 20-0996"); chunks the graph does not rank still need the score.
    alone = relevance_filter(chunks=[replace(PTSD, score=0.3), named, second], **WHITEPAPER)
    assert not alone.refuse and alone.weak_retrieval
    assert [(chunk.chunk_id, chunk.number) for chunk in alone.kept] == [(9, 1), (8, 2)]
    assert relevance_filter(chunks=[replace(PTSD, score=0.3)], **WHITEPAPER).refuse is True
