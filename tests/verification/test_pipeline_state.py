"""The pipeline's state copy: what dataclasses.replace gives, without its cost."""

import dataclasses

import pytest

from verification.pipeline.state import AnswerState, Reply, replace


def test_a_changed_copy_equals_the_one_dataclasses_makes_and_leaves_the_original_alone():
    state = AnswerState(asked="what is the rating for tinnitus", request_id="req-1", topics=("disability_ratings",))
    copy = replace(state, text="what is the rating for tinnitus", best_score=0.7)
    assert copy == dataclasses.replace(state, text="what is the rating for tinnitus", best_score=0.7)
    assert copy is not state and type(copy) is AnswerState
    assert (state.text, state.best_score) == ("", 0.0) and copy.started == state.started
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.text = "changed"  # type: ignore[misc]


def test_an_unknown_field_is_refused_like_dataclasses_refuses_it():
    with pytest.raises(TypeError, match="answer"):
        replace(AnswerState(asked="q", request_id="r"), answer="x")


def test_other_dataclasses_are_copied_by_dataclasses_replace():
    reply = Reply(answer="a", model="extractive", routing_reason="r", verification={})
    assert replace(reply, refused=True) == dataclasses.replace(reply, refused=True)
