import pytest

from verification.layers import refusal
from verification.layers.refusal import (
    REFUSAL_ENTITY_NOT_FOUND_GENERIC,
    REFUSAL_OUT_OF_SCOPE,
    REFUSAL_REASONS,
    REFUSAL_RETRIEVAL_TOO_WEAK,
    REFUSAL_SUBJECT_NOT_COVERED,
    REFUSAL_TERMINOLOGY_NOT_FOUND_GENERIC,
    REFUSAL_TERMINOLOGY_UNVERIFIED_GENERIC,
    REFUSAL_UNSUPPORTED_ANSWER,
    VA_BENEFITS_PHONE,
    refusal_build,
)

ALL_MESSAGES = [
    value for name, value in vars(refusal).items() if name.startswith("REFUSAL_") and isinstance(value, str)
]


def test_reasons_are_the_api_contracts_plus_unsupported_answer_and_under_review():
    assert REFUSAL_REASONS == (
        "retrieval_too_weak",
        "out_of_scope",
        "entity_not_found",
        "terminology_not_found",
        "terminology_unverified",
        "unsupported_answer",
        "under_review",
    )


@pytest.mark.parametrize("message", ALL_MESSAGES)
def test_every_message_points_to_va_and_a_vso_and_stays_short(message):
    assert VA_BENEFITS_PHONE == "1-800-827-1000"
    assert "1-800-827-1000" in message
    assert "Veterans Service Organization (VSO)" in message
    assert len(message) < 420
    assert "http" not in message


def test_retrieval_too_weak():
    result = refusal_build(reason="retrieval_too_weak", suggestions=["What is the rating for tinnitus?"])

    assert result.reason == "retrieval_too_weak"
    assert result.message == REFUSAL_RETRIEVAL_TOO_WEAK
    assert result.suggestions == ("What is the rating for tinnitus?",)
    # A question whose own subject no source holds: the message says so instead of asking to rephrase.
    uncovered = refusal_build(reason="retrieval_too_weak", detail={"subject": "not_covered"})
    assert uncovered.reason == "retrieval_too_weak" and uncovered.message == REFUSAL_SUBJECT_NOT_COVERED
    assert "another way" not in uncovered.message and "don't cover" in uncovered.message


def test_out_of_scope_names_who_handles_it():
    result = refusal_build(
        reason="out_of_scope", detail={"handler": "the Social Security Administration (ssa.gov)"}
    )

    assert result.message.startswith(
        "This question is about a program run by the Social Security Administration (ssa.gov), not a VA benefit"
    )
    assert "Please contact them directly." in result.message


def test_out_of_scope_without_handler_is_generic():
    assert refusal_build(reason="out_of_scope").message == REFUSAL_OUT_OF_SCOPE


def test_entity_not_found_names_the_code():
    result = refusal_build(reason="entity_not_found", detail={"kind": "dc_code", "value": "9999"})

    assert result.message.startswith(
        "I couldn't find diagnostic code 9999 in VA's rating schedule (38 CFR Part 4)."
    )


def test_entity_not_found_names_the_form():
    result = refusal_build(reason="entity_not_found", detail={"kind": "va_form", "value": "21-9999"})

    assert result.message.startswith("I couldn't find VA Form 21-9999 in VA's list of forms.")


def test_entity_not_found_without_detail_is_generic_never_half_filled():
    result = refusal_build(reason="entity_not_found", detail={"kind": "dc_code"})

    assert result.message == REFUSAL_ENTITY_NOT_FOUND_GENERIC
    assert "{" not in result.message


def test_terminology_messages_echo_the_term():
    not_found = refusal_build(reason="terminology_not_found", detail={"term": "TDIU"})
    unverified = refusal_build(reason="terminology_unverified", detail={"term": "nexus letter"})

    assert "I don't have a definition of \u201cTDIU\u201d" in not_found.message
    assert "\u201cnexus letter\u201d" in unverified.message
    assert "hasn't been checked by a reviewer" in unverified.message
    assert refusal_build(reason="terminology_not_found").message == REFUSAL_TERMINOLOGY_NOT_FOUND_GENERIC
    assert refusal_build(reason="terminology_unverified").message == REFUSAL_TERMINOLOGY_UNVERIFIED_GENERIC


def test_echoed_text_is_cleaned_and_cut():
    term = "<script>alert(1)</script> {handler} " + "x" * 200

    message = refusal_build(reason="terminology_not_found", detail={"term": term}).message

    assert "<" not in message and "{handler}" not in message
    assert "\u2026\u201d" in message
    assert len(message) < 420


def test_unsupported_answer():
    assert refusal_build(reason="unsupported_answer").message == REFUSAL_UNSUPPORTED_ANSWER


def test_at_most_three_distinct_suggestions():
    result = refusal_build(
        reason="retrieval_too_weak",
        suggestions=[
            "How do I file a claim?",
            "  ",
            "how do I file a claim?",
            "What is a Higher-Level Review?",
            "How is PTSD rated?",
            "What is the PACT Act?",
        ],
    )

    assert result.suggestions == ("How do I file a claim?", "What is a Higher-Level Review?", "How is PTSD rated?")


def test_unknown_reason_is_a_programming_error():
    with pytest.raises(ValueError):
        refusal_build(reason="because")


def test_to_dict():
    assert refusal_build(reason="unsupported_answer").to_dict() == {
        "refusal_reason": "unsupported_answer",
        "message": REFUSAL_UNSUPPORTED_ANSWER,
        "suggestions": [],
    }
