"""TDIU's (38 CFR 4.16(a)) and SMC-S's (3.350(i)) percentages applied to the ratings a question gives, combined
by 4.25's table."""

import re

import pytest

from verification.rating_tests import smc_s_check, smc_s_ratings_parse, tdiu_check, tdiu_ratings_parse


@pytest.mark.parametrize(("ratings", "met", "combined"), [
    ((60,), True, 60),  # the regulation's first test: one disability at 60%
    ((50, 40), True, 70),  # its example: 50 and 40 combine to 70 with one at 40
    ((40, 30), False, 60),  # 58, rounded to 60: one at 40 but not a combined 70
    ((30, 30, 20), False, 60),  # none at 40
    ((40, 30, 20), True, 70),  # 66.4, rounded to 70
    ((50, 20), False, 60),
    ((70, 10), True, 70),
])
def test_the_percentages_are_the_regulations(ratings, met, combined):
    check = tdiu_check(ratings=ratings)
    assert (check.met, check.combined) == (met, combined)


@pytest.mark.parametrize(("question", "ratings"), [
    ("my ratings are ptsd 30, back 30, knee 20 and im combined 60. no one condition at 40. I cant hold a job because "
     "of all of it, can I still get unemployability", (30, 30, 20)),
    ("I have 50% for PTSD and 40% for my back, combined 70. can I get TDIU?", (50, 40)),
    ("I'm 70% combined, PTSD 50 and back 20 and knee 20, can I apply for IU", (50, 20, 20)),
    ("i have 40 for my back and 30 for ptsd and 20 for tinnitus, tdiu?", (40, 30, 20)),
    ("I work 20 hours a week and have 50% ptsd and 30% back, can i get tdiu", (50, 30)),
    ("ptsd 50% back 20% - am i eligible for individual unemployability", (50, 20)),
    # "I'm at 60%" is the combined rating the others make (50, 10 and 0 combine to 60); a 0% is a rating too.
    ("Sleep apnea 50%, tinnitus 10%, hearing 0%. So im at 60% now which is the magic number for unemployability, can "
     "i get it", (50, 10, 0)),
    # "My highest rating is only 30" says again what the list says.
    ("VA says my combined is 70 percent but my highest rating is only 30 (ptsd 30, migraines 30, back 20, shoulder 20, "
     "tinnitus 10). my buddy says 70 combined means i automatically meet the TDIU requirement", (30, 30, 20, 20, 10)),
    # "The combined says 60%" is the total, not a condition at 60 (it was answered yes, "one condition is rated 60%");
    # "does he need to get to 70" is the total asked about.
    ("my husband has PTSD 50, back 20, and knee 10 and the combined says 60%. Does he qualify for individual "
     "unemployability or does he need to get to 70 first", (50, 20, 10)),
])
def test_the_askers_ratings_are_read_and_a_stated_combined_figure_set_aside(question, ratings):
    assert tdiu_ratings_parse(text=question) == ratings


@pytest.mark.parametrize("question", [
    "I'm 60 and rated 50 for back and 20 for knee, TDIU?",  # 60: an age or a rating
    "I'm 70% for PTSD, can I get TDIU",  # one figure: the generator answers from 4.16
    "I have 50% for PTSD and 40% for my back, how much does TDIU pay",  # not whether the asker qualifies
    "50 and 40%... can i work part time on tdiu",
    "im 100% for ptsd and 60 for my back, can i get smc",  # SMC's own rules
    "my husband was 60% for his heart and 20% knee, he died, did he get TDIU",
    "I have 50 and 30, what is my combined rating",  # no TDIU asked
    # A stated combined figure the ratings read do not make: one was missed (the knees' rating).
    "combined 70%, back 40, PTSD 30 and my knees. can i get tdiu",
    "40 for my back, I mean 30, and 50 ptsd, can i get tdiu",  # corrected as it is typed
    "it's all orthopedic, back 40 knee 20 hip 20, can I get tdiu",  # one body system counts as one disability
])
def test_questions_it_does_not_read(question):
    assert tdiu_ratings_parse(text=question) is None


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_answer_applies_the_test_and_says_what_remains():
    from verification.pipeline.direct import TDIU_MODEL
    from verification.services import answer_question

    result = answer_question(question="my ratings are ptsd 30, back 30, knee 20 and im combined 60. no one condition at "
                                      "40. I cant hold a job, can I still get unemployability", use_cache=False)
    assert not result.refused and result.model == TDIU_MODEL and result.routing_reason == "tdiu_percentages"
    assert result.answer.startswith("Not by the percentages alone: with 30%, 30% and 20%")
    assert "4.16(b)" in result.answer and "count as one disability" in result.answer
    assert [c["number"] for c in result.citations] == [1, 2, 3]
    assert all(c["url"].endswith("/section-4.16") for c in result.citations)
    assert {int(n) for n in re.findall(r"\[(\d+)\]", result.answer)} == {1, 2, 3}
    met = answer_question(question="I'm 70% for PTSD and 10% tinnitus, can i get IU", use_cache=False)
    assert met.answer.startswith("Yes, these ratings meet the percentages for TDIU")
    assert [c["number"] for c in met.citations] == [1]


@pytest.mark.parametrize(("question", "others", "met"), [
    ("I'm 100% for PTSD. I also have migraines rated 50 and my back is 20, separate. Is there any extra payment for "
     "that?", (50, 20), True),  # 50 and 20 combine to 60
    ("im 100% for ptsd and 60 for my back, do i get smc s", (60,), True),
    ("100% for my heart and 30% knee, any extra money?", (30,), False),
    ("100% for ptsd, 40% back and 10% tinnitus, do I get SMC", (40, 10), False),  # 46, rounded to 50
    ("i'm 100% for PTSD. I also have sleep apnea 50, back 20 and tinnitus 10. is there any extra money above the 100 "
     "rate for me", (50, 20, 10), True),  # 64, rounded to 60
    ("100% P&T for PTSD and 40% back. thats 140% so i should be getting housebound smc right?", (40,), False),
])
def test_smc_s_reads_the_ratings_beside_one_disability_at_100(question, others, met):
    assert smc_s_ratings_parse(text=question) == others
    assert smc_s_check(others=others).met is met


@pytest.mark.parametrize("question", [
    "I'm 100% P&T, is there anything extra",  # a total, not one disability at 100%
    "I'm 100% combined with ptsd 70 and back 40, do I get smc",
    "i'm 100% for ptsd and 20% knee, any extra money for my kids",  # dependents
    "I'm 100% for PTSD and 30% for my back, can I get TDIU",
    "I'm 100% combined but none of them is 100 by itself: 70 ptsd, 60 back, 50 migraines, 20 knee. do I get smc s",
])
def test_smc_s_leaves_other_questions_to_the_generator(question):
    assert smc_s_ratings_parse(text=question) is None


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_smc_s_answer_is_cited_to_its_section():
    from verification.pipeline.direct import SMC_S_MODEL
    from verification.services import answer_question

    result = answer_question(question="I'm 100% for PTSD. I also have migraines rated 50 and my back is 20, separate. "
                                      "Is there any extra payment for that?", use_cache=False)
    assert result.model == SMC_S_MODEL and result.routing_reason == "smc_s_percentages" and not result.refused
    assert result.answer.startswith("Yes, this looks like SMC-S") and "50% and 20% combine to 60%" in result.answer
    assert [c["number"] for c in result.citations] == [1] and result.citations[0]["url"].endswith("/section-3.350")


def test_a_percentage_said_of_the_asker_is_the_combined_rating_not_a_condition():
    from verification.rating_tests import tdiu_ratings_parse
    # "I'm 70% with PTSD at 50" was read as a condition at 70% ("one condition is rated 70%, enough by itself").
    assert tdiu_ratings_parse(text="can i get tdiu if i'm 70% with ptsd at 50") is None
    assert tdiu_ratings_parse(text="can i get tdiu if i'm 70%, ptsd 50 and back 40") == (50, 40)
