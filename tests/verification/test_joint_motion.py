"""A knee's measured motion read against DC 5260 (bending) and DC 5261 (straightening), each against its own table."""

import pytest

from tests.verification.worked_out import worked_out_answer
from verification.joint_motion import (
    KneeMotion,
    extension_level,
    flexion_level,
    knee_motion_answer,
    knee_motion_parse,
)


@pytest.mark.parametrize(("degrees", "level"), [(140, 0), (61, 0), (60, 0), (50, 0), (45, 10), (31, 10), (30, 20),
                                                (16, 20), (15, 30), (0, 30)])
def test_flexion_levels_follow_dc_5260(degrees, level):
    assert flexion_level(degrees) == level


@pytest.mark.parametrize(("degrees", "level"), [(0, 0), (5, 0), (9, 0), (10, 10), (15, 20), (20, 30), (29, 30),
                                                (30, 40), (45, 50), (60, 50)])
def test_extension_levels_follow_dc_5261(degrees, level):
    assert extension_level(degrees) == level


@pytest.mark.parametrize(("question", "motion"), [
    # It led with "50% — extension limited to 45 degrees", the other table's row nearest the figure.
    ("C&P examiner measured my right knee, it bends to 50 degrees and straightens all the way. what rating does that "
     "get for range of motion", KneeMotion(flexion=50, extension=0, painful=False)),
    # "Won't straighten all the way" is no full extension; "lacks 15 degrees" is the straightening.
    ("left knee only bends to about 40 degress and it wont straighten all the way, doc said lacks 15 degrees. what % is "
     "that??", KneeMotion(flexion=40, extension=15, painful=False)),
    ("VA exam measured my right knee bend at 100 degrees, straightening was normal (0). it still hurts tho every time i "
     "bend it. what rating should that be", KneeMotion(flexion=100, extension=0, painful=True)),
    ("my knee flexion is 110, what rating", KneeMotion(flexion=110, extension=None, painful=False)),
    # "Stays bent about 15 degrees": it cannot straighten past that.
    ("i cant straighten my knee all the way anymore, it stays bent about 15 degrees. does va rate that",
     KneeMotion(flexion=None, extension=15, painful=False)),
    # The figure before the words: "stops about 10 degrees short" (it gave the bending alone).
    ("my right knee only bends to about 30 degrees and it wont go straight either, stops about 10 degrees short. what % "
     "would each be", KneeMotion(flexion=30, extension=10, painful=False)),
])
def test_the_measurements_are_read_as_bending_and_straightening(question, motion):
    assert knee_motion_parse(text=question) == motion


@pytest.mark.parametrize("question", [
    "my knee bends to 90 degrees but my other knee bends to 70, rating?",  # two knees
    "both knees bend to 90 degrees, what rating",
    "my knee replacement only bends to 90 degrees, what rating",  # DC 5055's own table
    "my knee gives way and bends to 100 degrees, rating?",  # instability is rated apart
    "my knee hurts when it bends 3 times a day, rating?",  # no measurement
    "how is a knee rated",
    "my knee bends to 90 degrees",  # no rating asked
])
def test_questions_it_does_not_read(question):
    assert knee_motion_parse(text=question) is None


def test_the_answer_reads_each_measurement_against_its_own_table():
    full = knee_motion_answer(motion=KneeMotion(flexion=50, extension=0, painful=False))
    assert full.startswith("Bending to 50 degrees is 0% under DC 5260")
    assert "10% level needs flexion limited to 45 degrees [1]" in full
    assert "Straightening fully is 0% under DC 5261, limitation of extension [2]" in full
    both = knee_motion_answer(motion=KneeMotion(flexion=40, extension=15, painful=False))
    assert "Bending to 40 degrees is 10%" in both and "Lacking 15 degrees of straightening is 20%" in both
    assert "rated separately (VAOPGCPREC 9-2004) and then combined [3]" in both
    painful = knee_motion_answer(motion=KneeMotion(flexion=100, extension=0, painful=True))
    assert "painful motion under 38 CFR 4.59 can still support the 10 percent minimum [1]" in painful


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_pipeline_answers_with_the_tables_and_cites_their_chunks():
    from verification.pipeline.direct import KNEE_MOTION_MODEL

    result = worked_out_answer("left knee only bends to about 40 degress and it wont straighten all the way, doc said "
                               "lacks 15 degrees. what % is that??", model=KNEE_MOTION_MODEL, routing_reason="knee_motion")
    assert result.answer.startswith("Bending to 40 degrees is 10% under DC 5260")
    assert [c["chunk_id"] for c in result.citations] == ["dc-5260-knee-flexion", "dc-5261-knee-extension",
                                                         "dc-knee-separate-ratings"]
    # Straightening alone cites DC 5261's chunk, numbered 1.
    extension = worked_out_answer("i cant straighten my knee all the way anymore, it stays bent about 15 degrees. does "
                                  "va rate that", model=KNEE_MOTION_MODEL, routing_reason="knee_motion")
    assert [c["chunk_id"] for c in extension.citations] == ["dc-5261-knee-extension"]
