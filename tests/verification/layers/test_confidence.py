import json
import math

import pytest

from tests.verification.layers.sources import CHUNKS, TINNITUS
from verification.layers.confidence import (
    LOW_CONFIDENCE_WARNING,
    PREVIEW_CHARS,
    RECOMMEND_NO_CHUNKS,
    answer_confidence,
    confidence_assess,
    low_confidence_report_build,
    question_keywords,
)

CLEAN = {
    "citation_score": 1.0,
    "invalid_urls": [],
    "hallucinated_numbers": [],
    "hallucinated_codes": [],
    "removed_citations": [],
    "is_clean": True,
}


def test_warning_constant():
    assert LOW_CONFIDENCE_WARNING.format(score=0.4649) == (
        "\u26a0\ufe0f **Note:** My sources may not fully cover this topic. Our internal confidence score is "
        "**46.5%** for this response - please verify the answer with your own due diligence. A report has been "
        "generated and someone will review this."
    )


def test_warns_below_the_threshold_only():
    assert confidence_assess(best_score=0.47, warning_below=0.50).warning == LOW_CONFIDENCE_WARNING.format(score=0.47)
    assert confidence_assess(best_score=0.50, warning_below=0.50).warning is None
    assert confidence_assess(best_score=0.71, warning_below=0.50).to_dict() == {"warning": None}


def test_the_warning_states_the_confidence_it_is_given():
    warning = confidence_assess(best_score=0.38, warning_below=0.40, confidence=0.62).warning
    assert warning == LOW_CONFIDENCE_WARNING.format(score=0.62) and "**62.0%**" in warning
    assert confidence_assess(best_score=0.45, warning_below=0.40, confidence=0.2).warning is None


def test_nan_score_warns():
    assert confidence_assess(best_score=math.nan, warning_below=0.5).warning == LOW_CONFIDENCE_WARNING.format(
        score=0.0
    )


@pytest.mark.parametrize(
    ("best_score", "citation_score", "expected"),
    [
        (0.57, 1.0, 0.75),
        (0.71, 1.0, 0.84),
        (0.71, 0.5, 0.6),
        (0.71, 0.0, 0.0),
        (0.0, 1.0, 0.0),
        (1.3, 1.0, 1.0),
        (-0.2, 1.0, 0.0),
        (math.nan, 1.0, 0.0),
    ],
)
def test_answer_confidence_is_the_geometric_mean(best_score, citation_score, expected):
    assert answer_confidence(best_score=best_score, citation_score=citation_score) == expected


def test_answer_confidence_rises_with_either_signal():
    assert answer_confidence(best_score=0.6, citation_score=0.8) < answer_confidence(best_score=0.7, citation_score=0.8)
    assert answer_confidence(best_score=0.6, citation_score=0.8) < answer_confidence(best_score=0.6, citation_score=0.9)


def test_report_describes_query_chunks_gaps_and_issues():
    verification = {
        **CLEAN,
        "citation_score": 0.5,
        "invalid_urls": ["https://evil.example.com/x"],
        "hallucinated_numbers": ["30%"],
        "hallucinated_codes": ["6261"],
        "removed_citations": ["[9]"],
        "is_clean": False,
    }

    report = low_confidence_report_build(
        question="What is the VA rating for tinnitus in both ears under DC 6260?",
        chunks=CHUNKS,
        topics=["disability_ratings", "Hearing Loss"],
        verification=verification,
        best_score=0.4712,
        entities=[{"type": "dc_code", "value": "6260"}],
    )

    assert json.loads(json.dumps(report)) == report
    assert report["best_score"] == 0.4712
    assert report["query_analysis"] == {
        "length_chars": 62,
        "length_words": 13,
        "keywords": ["rating", "tinnitus", "ears", "dc", "6260"],
        "entities": [{"type": "dc_code", "value": "6260"}],
    }
    assert [chunk["chunk_id"] for chunk in report["chunks"]] == [703, 1204, 1302]
    assert report["chunks"][0]["preview"] == TINNITUS.content[:PREVIEW_CHARS]
    assert len(report["chunks"][0]["preview"]) == 200
    assert report["chunks"][0]["score"] == 0.71
    assert report["topic_gaps"] == ["Hearing Loss"]
    assert report["verification_issues"] == [
        "citation_score 0.50",
        "unsupported values: 30%, 6261",
        "invalid urls: https://evil.example.com/x",
        "removed citations: [9]",
    ]
    assert report["recommendations"] == [
        "Add corpus content on Hearing Loss: no retrieved chunk covers it.",
        "Review citations: the citation score was 0.50, so some claims were not supported by their sources.",
        "Review the answer: it stated values its sources do not (30%, 6261); the sentences were removed.",
        "Check links: the answer linked outside the whitelist (https://evil.example.com/x).",
        "Check source numbering: the answer cited sources it was not given ([9]).",
    ]


def test_report_without_chunks_recommends_content():
    report = low_confidence_report_build(
        question="Can I get CHAMPVA for my stepson?", chunks=[], topics=[], verification={}, best_score=0.31
    )

    assert report["chunks"] == []
    assert report["recommendations"] == [RECOMMEND_NO_CHUNKS]
    assert report["verification_issues"] == []


def test_report_with_covered_topics_points_at_the_question():
    report = low_confidence_report_build(
        question="How long do I have for a Higher-Level Review?",
        chunks=CHUNKS,
        topics=["appeals"],
        verification=CLEAN,
        best_score=0.48,
        keywords=["higher-level review", "deadline"],
    )

    assert report["topic_gaps"] == []
    assert report["recommendations"] == [
        "Add corpus content that answers questions like this one (higher-level review, deadline)."
    ]


def test_question_keywords():
    assert question_keywords("Is the PACT Act's burn pit presumption for Veterans in 2022?") == [
        "pact", "act's", "burn", "pit", "presumption", "2022",
    ]
