"""What every answer worked out in code must show: the step that made it, and one citation for each marker, numbered
from 1."""

import re


def worked_out_answer(question: str, *, model: str, routing_reason: str):
    from verification.services import answer_question

    result = answer_question(question=question, use_cache=False)
    assert (result.model, result.routing_reason) == (model, routing_reason), result.answer
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", result.answer)}
    assert markers == {c["number"] for c in result.citations} == set(range(1, len(markers) + 1)), result.answer
    return result
