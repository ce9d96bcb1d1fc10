"""The combined-ratings calculator against 38 CFR 4.25's Table I and the regulation's own examples."""

import json
from pathlib import Path

import pytest

from verification.combined_ratings import RatingInvalid, combined_rating, rating_round, ratings_combine_once

DOCS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "docs_all.jsonl"


def table_i() -> dict[tuple[int, int], int]:
    """Table I as published (docs_all.jsonl holds 38 CFR 4.25 with the table as text rows)."""
    if not DOCS.exists():
        pytest.skip(f"{DOCS} is missing (real data for tests lives in ../shared/data)")
    text = next(json.loads(line)["text"] for line in DOCS.open() if json.loads(line)["id"] == "38cfr-4.25")
    rows = [line.split("|") for line in text.splitlines() if line.count("|") == 9]
    columns = [int(c) for c in rows[0][1:]]
    return {(int(row[0]), column): int(cell) for row in rows[1:] if row[0].strip().isdigit()
            for column, cell in zip(columns, row[1:], strict=True)}


def test_every_cell_of_table_i():
    table = table_i()
    assert len(table) >= 70 * 9  # rows 19 to 94 (and more), columns 10 to 90
    mismatches = {key: cell for key, cell in table.items()
                  if ratings_combine_once(value=key[0], rating=key[1]) != cell}
    assert mismatches == {}


@pytest.mark.parametrize(
    ("ratings", "combined_value", "rating"),
    [
        ((50, 30), 65, 70),  # 4.25(a): 65 must be converted to 70
        ((40, 20), 52, 50),  # 4.25(a): 52 converted to 50
        ((60, 30), 72, 70),  # 4.25's efficiency example
        ((60, 40), 76, 80),
        ((60, 40, 20), 81, 80),  # 4.25(a): 76, then 81, converted to 80
        ((50, 30, 20), 72, 70),
        ((20, 30, 50), 72, 70),  # the order given does not matter: largest first
        ((50, 50), 75, 80),
        ((50, 30, 20, 10), 75, 80),
        ((100, 50), 100, 100),
        ((30, 0), 30, 30),
    ],
)
def test_ratings_combine_as_the_regulation_shows(ratings, combined_value, rating):
    result = combined_rating(ratings=list(ratings))
    assert (result.combined_value, result.rating) == (combined_value, rating)


def test_steps_carry_the_exact_value_not_the_rounded_one():
    result = combined_rating(ratings=[60, 40, 20])
    assert [(s.value, s.rating, s.combined) for s in result.steps] == [(60, 40, 76), (76, 20, 81)]


def test_the_bilateral_factor_of_4_26():
    # 4.26's example: 60, 20, 10 and 10, the two 10s bilateral: 19 + 1.9 → 21; 60, 21, 20 → 68 → 74 → 70.
    result = combined_rating(ratings=[60, 20], bilateral=[10, 10])
    assert result.bilateral.combined == 19 and str(result.bilateral.factor) == "1.9" and result.bilateral.value == 21
    assert result.order == (60, 21, 20)
    assert [s.combined for s in result.steps] == [68, 74] and result.rating == 70


def test_no_bilateral_factor_without_a_compensable_rating_on_each_side():
    assert combined_rating(ratings=[30], bilateral=[10, 0]).bilateral is None
    assert combined_rating(ratings=[30], bilateral=[10, 0]).combined_value == 37


@pytest.mark.parametrize(("value", "rounded"), [(64, 60), (65, 70), (74, 70), (75, 80), (94, 90), (95, 100), (4, 0)])
def test_rounding_to_the_nearest_ten_with_fives_up(value, rounded):
    assert rating_round(value=value) == rounded


@pytest.mark.parametrize("bad", [[], [110], [-10], [12.5], [True]])
def test_ratings_must_be_whole_percentages(bad):
    with pytest.raises(RatingInvalid):
        combined_rating(ratings=bad)


def test_a_combined_figure_someone_stated_is_not_a_rating_to_combine():
    from verification.combined_ratings import combined_question_parse
    asked = combined_question_parse(text="Im rated PTSD 70, back 20, tinnitus 10, left knee 10. VA says my combined "
                                         "is 80 but the way i figure it should be 90. who's right?")
    assert asked.ratings == (70, 20, 10, 10) and asked.believed == 90
    asked = combined_question_parse(text="I have 50, 20 and 10 and va says im 60 combined, is that right")
    assert asked.ratings == (50, 20, 10) and asked.believed == 60
    asked = combined_question_parse(text="30 ptsd, 30 back, 20 knee, combined 60. how does va get that")
    assert asked.ratings == (30, 30, 20) and asked.believed == 60
    # The asker's own combined rating and a new one still combine.
    assert combined_question_parse(text="my combined rating is 70 and I just got 30, what is my new combined"
                                   ).ratings == (70, 30)
    # A figure a letter states with its condition right after it is a rating ("says 40% back"), not the total.
    asked = combined_question_parse(text="my rating letter says 40% back and 20% left knee but my total is only 50?? "
                                         "shouldnt it be 60")
    assert asked.ratings == (40, 20) and asked.believed == 60
    asked = combined_question_parse(text="VA says 40% back and 20% knee, total 50, why not 60")
    assert asked.ratings == (40, 20) and asked.believed == 60
    assert combined_question_parse(text="ratings: 30 knee, 20 back, 10 tinnitus. what do i come out to?"
                                   ).ratings == (30, 20, 10)
    # A laugh after someone's figure is no condition: "my brother says 100 lol" is the total he gave.
    asked = combined_question_parse(text="I have 60 for my back/legs, 30 for migraines, 10 tinnitus. whats my combined "
                                         "rating? my brother says 100 lol")
    assert asked.ratings == (60, 30, 10) and asked.believed == 100
    # A bound the sum is said to pass is no rating: "70+40 is already over 100".
    asked = combined_question_parse(text="I have PTSD 70, lower back 40 and tinnitus 10. my buddy swears that should be "
                                         "100 because 70+40 is already over 100. what is my combined actually")
    assert asked.ratings == (70, 40, 10) and asked.believed == 100


@pytest.mark.parametrize(("text", "believed"), [("i have 50 and 30, why isnt that 80", 80),
                                              ("why is my 50 and 30 only 70", 70),
                                              ("why is my rating 70 when i have 50 and 30", 70),
                                              ("50 and 30 = 80 right??", 80),
                                              ("i have 50% and 30%, so thats 80 right", 80)])
def test_a_total_the_asker_questions_is_their_belief_and_the_ratings_are_combined(text, believed):
    from verification.combined_ratings import combined_question_parse
    asked = combined_question_parse(text=text)
    assert asked is not None and asked.ratings == (50, 30) and asked.believed == believed


def test_respiratory_ratings_that_38_cfr_4_96_keeps_apart_are_not_a_calculation():
    # One rating for the main condition, raised a level; the calculator would say 65%, rounded to 70%.
    from verification.combined_ratings import combined_question_parse
    assert combined_question_parse(text="im 50% for sleep apnea and 30 for asthma. do they combine?") is None
    assert combined_question_parse(text="30% COPD plus 30% sleep apnea, combined rating?") is None
    assert combined_question_parse(text="50% sleep apnea and 30% ptsd, what is my combined rating").ratings == (50, 30)


def test_adding_a_wife_is_a_dependent_not_a_rating_to_combine():
    # "I'm rated 20% ... add my wife and get more money. Is that true at 20%?" combined 20 and 20 to 40%.
    from verification.combined_ratings import combined_question_parse
    assert combined_question_parse(text="I'm rated 20% and just got married. My buddy says I can add my wife and "
                                        "get more money. Is that true at 20%?") is None
    assert combined_question_parse(text="I have 20 and 10, if I add them what do I get").ratings == (20, 10)


def test_ratings_summed_by_hand_are_not_counted_twice():
    # "My ratings are 40 20 and 10 and they say combined is 60?? 40+20+10 is 70": three ratings, not seven.
    from verification.combined_ratings import combined_question_parse
    asked = combined_question_parse(text="got my decision letter today - my ratings are 40 20 and 10 and they say "
                                         "combined is 60?? 40+20+10 is 70 what happened")
    assert asked.ratings == (40, 20, 10) and asked.believed == 70
    assert combined_question_parse(text="what is 50 + 30 + 10 combined").ratings == (50, 30, 10)
    assert combined_question_parse(text="ratings 30, 20, 10. 30+20+10 makes 60").believed == 60


def test_the_same_ratings_asked_about_again_are_not_counted_twice():
    # Read as 50, 30, 50 and 30, the question was answered 90%: the second list is the first one asked again.
    from verification.combined_ratings import combined_question_parse
    asked = combined_question_parse(text="how come my 50% and 30% only came out to 70 and not 80?? what is the "
                                         "combined rating for 50 and 30")
    assert asked.ratings == (50, 30) and asked.believed == 80
    # Two ratings of each, in one list, are four ratings.
    assert combined_question_parse(text="i have 30 and 10 and 30 and 10, combined?").ratings == (30, 10, 30, 10)


def test_two_guesses_at_ones_own_rating_are_not_ratings_to_combine():
    from verification.combined_ratings import combined_question_parse
    assert combined_question_parse(text="What's my combined rating? I lost my award letter and can't remember if "
                                        "it's 70 or 80") is None
    assert combined_question_parse(text="not sure if my knee is 10 or 20, my back is 40, what's my combined") is None
    assert combined_question_parse(text="I have 70 or so for ptsd and 30 for my back, combined?").ratings == (70, 30)


def test_a_question_about_unemployability_is_not_a_calculation():
    from verification.combined_ratings import combined_question_parse
    assert combined_question_parse(text="Im 50% ptsd, 20% back and 10% tinnitus and va says im 60 combined. "
                                        "do i qualify for unemployability?") is None
    assert combined_question_parse(text="I'm 30 ptsd, 30 back, 20 knee, combined 60. I can't hold a job. can I "
                                        "still get IU or am I out of luck") is None


@pytest.mark.parametrize(("text", "ratings", "bilateral", "believed"), [
    # A side written right after its rating, without "for".
    ("rated 10% left knee, 10% right knee and 30% migraines. does the bilateral factor apply and what is my total?",
     (30,), (10, 10), None),
    # "10% for each foot": one rating given for each side, beside others.
    ("my wife is rated 30% for migraines, 10% for each foot for plantar fasciitis and 10% tinnitus. what's her "
     "combined percent", (30, 10), (10, 10), None),
    ("I have 10% for each foot and 20% for my back, what is my combined", (20,), (10, 10), None),
    # The total hoped for, after "make me" or "will I get": not a rating.
    ("I have 10% tinnitus and just got 10% for hearing loss. does that make me 20 percent?", (10, 10), (), 20),
    ("50 and 30, will that get me to 70?", (50, 30), (), 70),
    # What the asker expected instead is no rating either (it read "100" as a third rating: 100%).
    ("why does 50% and 50% equal 80% instead of 100?? VA math makes no sense", (50, 50), (), 80),
    # "Both my knees ... each": one rating for both sides, beside another (one knee was dropped: 40%).
    ("Both my knees are 10% each and my PTSD is 30%. VA says I'm 50% combined. How did they get 50?",
     (30,), (10, 10), 50),
    # A rating someone "gave me" for a condition is one to combine ("VA gave me 60 combined" is the total).
    ("I'm at 40% and they just gave me 20% for my knee, what's my combined now", (40, 20), (), None),
    ("VA gave me 60 combined, I have 50 and 30, why", (50, 30), (), 60),
    ("I'm 60% and they just gave me 10% for tinnitus, what's my new combined?", (60, 10), (), None),
    # A rating named again as what it adds is no second rating (it combined 90, 40 and 40 into 100%).
    ("Im already 90% combined. Just got a new 40% for my migraines and the letter still says 90%. How is that "
     "possible?? I thought 40 more would put me at 100 for sure", (90, 40), (), 100),
    # The side VA rated, told the other way round: the 0% side makes no bilateral factor, and the answer says so.
    ("my right ankle is 10% but the left ankle they gave 0%. do i still get the bilateral factor thing or no",
     (), (0, 10), None),
    # The sides alone, once the pair is named (it combined 30 and 20 without the bilateral factor: 40%).
    ("carpal tunnel in both hands, right is 30 and left is 20. how does the bilateral factor work out",
     (), (20, 30), None),
])
def test_sides_each_side_and_a_hoped_for_total_are_read(text, ratings, bilateral, believed):
    from verification.combined_ratings import combined_question_parse
    asked = combined_question_parse(text=text)
    assert (asked.ratings, asked.bilateral, asked.believed) == (ratings, bilateral, believed)


def test_dates_beside_will_i_get_are_not_ratings_to_combine():
    # "Intent to file march 10 2024, submitted my 526 on feb 20 2025, what effective date will I get".
    from verification.combined_ratings import combined_question_parse
    assert combined_question_parse(text="did an intent to file march 10 2024 and submitted my 526 on feb 20 2025. "
                                        "what effective date will i get") is None
    assert combined_question_parse(text="im 50% and 30%, will i get smc") is None


def test_special_monthly_compensation_and_permanent_and_total_are_not_calculations():
    from verification.combined_ratings import combined_question_parse
    # SMC's rules are what is asked; "adds up to about 60" is the asker's own sum (it gave "100 and 60 make 100").
    assert combined_question_parse(text="Im 100% for PTSD and my other stuff (back, knees, migraines) adds up to "
                                        "about 60. somebody said i should be getting SMC S. what is that") is None
    # "Permanent and total" is a status and "20 yrs" a length of service (it gave "100 and 20 make 100").
    assert combined_question_parse(text="My husband is retired from the Air Force (20 yrs) and VA just made him 100% "
                                        "permanent and total. can I switch to CHAMPVA or get both?") is None
    assert combined_question_parse(text="my back is 40 and knee 20, does that get me to about 50").believed == 50


@pytest.mark.parametrize("text", [
    # The combined figure and the ratings that make it are the asker's standing; VR&E is asked (it answered "your
    # combined rating would be 40%", counting the 20 as a third rating).
    "im rated 20% combined (10 for ankle 10 tinnitus). can I use voc rehab / chapter 31 to go back to school?",
    "I'm 70% combined, ptsd 50 and back 40, can I get a VA loan with no funding fee",
])
def test_a_combined_figure_the_ratings_make_is_standing_not_a_calculation(text):
    from verification.combined_ratings import combined_question_parse
    assert combined_question_parse(text=text) is None


@pytest.mark.parametrize(("text", "ratings", "believed"), [
    # Asked how the total came about, or whether it is right: the ratings are combined, the total is the one given.
    ("im rated 20% combined (10 for ankle 10 tinnitus), how did they get 20", (10, 10), 20),
    ("im 60% combined with 50 and 20, is that right", (50, 20), 60),
    # A combined figure the others do not make is a rating still to combine with a new one.
    ("I'm 70 combined and just got 30 for my knee, what's my new rating", (70, 30), None),
])
def test_a_combined_figure_asked_about_or_added_to_is_still_worked_out(text, ratings, believed):
    from verification.combined_ratings import combined_question_parse
    asked = combined_question_parse(text=text)
    assert (asked.ratings, asked.believed) == (ratings, believed)


def test_a_down_payment_is_no_rating_and_a_total_asked_to_be_checked_is_the_belief():
    from verification.combined_ratings import combined_question_parse
    # "Putting 0 down" was read as a 0% rating beside the 10%: "Your combined rating would be 10%" to a funding fee question.
    assert combined_question_parse(text="im 10% service connected for tinnitus. buying a house, its my 2nd va loan and "
                                        "putting 0 down. do i have to pay the funding fee? isnt it like 3 percent") is None
    # "So I'm 90 now right?? 70+20": the sum the asker made, asked to be checked (it was answered with arthritis).
    asked = combined_question_parse(text="They just gave me 20 percent for my knee. I was already at 70%. so I'm 90 now "
                                         "right?? 70+20")
    assert (asked.ratings, asked.believed) == ((20, 70), 90)
