"""Run named steps in order over an immutable state, recording each step's stage, milliseconds and decision."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from verification.pipeline.state import AnswerState, replace


def _always(state: AnswerState) -> bool:
    return True


@dataclass(frozen=True)
class Step:
    """One named step: ``run`` returns the next state, its ``decision`` set for the trace.

    A step runs only while no reply has been chosen, unless it is ``final`` (storing the reply); ``when``
    skips it, unrecorded, for states it does not apply to.
    """

    stage: str
    run: Callable[[AnswerState], AnswerState]
    when: Callable[[AnswerState], bool] = _always
    final: bool = False


def steps_run(steps: Sequence[Step], state: AnswerState) -> AnswerState:
    """Run ``steps`` in order until one finishes the answer (sets ``result``)."""
    for step in steps:
        if state.result is not None:
            break
        if (state.reply is not None and not step.final) or not step.when(state):
            continue
        state = step_apply(step, state)
    return state


def step_apply(step: Step, state: AnswerState) -> AnswerState:
    """Run one step and record it; a step that runs steps of its own is recorded before them."""
    at = len(state.trace)
    started = time.perf_counter()
    state = step.run(state)
    entry = {"stage": step.stage, "ms": round((time.perf_counter() - started) * 1000, 2)}
    if state.decision:
        entry["decision"] = state.decision
    return replace(state, trace=(*state.trace[:at], entry, *state.trace[at:]), decision=None)
