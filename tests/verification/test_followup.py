"""Follow-up questions rewritten from the conversation's earlier questions (a pure function: no database)."""

import pytest

from verification.followup import HISTORY_MAX, question_rewrite

TERMS = {"tdiu": "tdiu", "ptsd": "ptsd", "higher-level review": "higher-level review",
         "nexus letter": "nexus letter"}
CONDITIONS = {"sleep apnea": "6847", "bipolar disorder": "9432"}


def rewrite(question, *history):
    return question_rewrite(question=question, history=list(history), terms=TERMS, conditions=CONDITIONS)


@pytest.mark.parametrize(
    ("history", "question", "rewritten"),
    [
        # Another subject in the same frame.
        ("What is the VA rating for tinnitus?", "what about my knee?", "What is the VA rating for my knee?"),
        ("How is PTSD rated?", "what about my knee?", "How is my knee rated?"),
        ("What is the VA rating for tinnitus?", "And sleep apnea?", "What is the VA rating for sleep apnea?"),
        ("How do I apply for VA health care?", "what about the GI Bill?", "How do I apply for the GI Bill?"),
        ("How is PTSD rated?", "knee?", "How is knee rated?"),
        # Another level.
        ("What is the PTSD rating at 50 percent?", "and at 70 percent?", "What is the PTSD rating at 70 percent?"),
        ("What is the PTSD rating at 50 percent?", "70%?", "What is the PTSD rating at 70%?"),
        ("What does a PTSD rating need?", "and at 70 percent?", "What does a PTSD rating need at 70 percent?"),
        # Another person.
        ("How much is DIC?", "what about for my spouse?", "How much is DIC for my spouse?"),
        ("Can my wife get CHAMPVA?", "what about my children?", "Can my children get CHAMPVA?"),
        # A pronoun for the earlier subject.
        ("What is TDIU?", "how do I apply for it?", "how do I apply for TDIU?"),
        ("How much is DIC?", "Is it taxable?", "Is DIC taxable?"),
        ("How do I file a Higher-Level Review?", "how long does that take?",
         "how long does Higher-Level Review take?"),
    ],
)
def test_follow_ups_are_rewritten_with_the_earlier_question(history, question, rewritten):
    assert rewrite(question, history) == rewritten


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("What is the VA rating for tinnitus?", "What is the VA rating for sleep apnea?"),
        ("What is TDIU?", "Is it true that VA pays for hearing aids?"),
        ("What is TDIU?", "How do I get a nexus letter?"),
        ("How much is DIC?", "What documents do I need to apply for the GI Bill?"),
    ],
)
def test_standalone_questions_are_left_alone(history, question):
    assert rewrite(question, history) is None


def test_without_history_nothing_is_rewritten():
    assert rewrite("what about my knee?") is None


def test_the_latest_question_that_completes_the_follow_up_is_used():
    history = ["What is TDIU?", "How much is DIC?"]
    assert rewrite("Is it taxable?", *history) == "Is DIC taxable?"
    # Nothing in the latest question to swap: an earlier one is read.
    assert rewrite("and at 70 percent?", "What is the PTSD rating at 50 percent?", "thanks") == \
        "What is the PTSD rating at 70 percent?"


def test_only_the_last_questions_of_the_history_are_read():
    old = "What is the PTSD rating at 50 percent?"
    assert rewrite("and at 70 percent?", old, *["hello"] * HISTORY_MAX) is None
    assert rewrite("and at 70 percent?", old, *["hello"] * (HISTORY_MAX - 1)) is not None
