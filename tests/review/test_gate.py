"""The entity gate reads the meaning that changes an answer: codes, forms, benefits, numbers, negation,
comparisons and frequencies (pure functions, no database)."""

import pytest

from knowledge.gate import gate_key_build, question_meaning


@pytest.mark.parametrize(("first", "second"), [
    ("Is sleep apnea rated with a CPAP?", "Is sleep apnea rated without a CPAP?"),
    ("Is my condition service connected?", "Is my condition not service connected?"),
    ("Can I get TDIU if I can work?", "Can I get TDIU if I can't work?"),
    ("My migraines are prostrating once a month", "My migraines are prostrating every two months"),
    ("I get treatment twice a month", "I get treatment every two months"),
    ("I get treatment once a month", "I get treatment once a year"),
    ("Can a spouse who remarries before 55 keep DIC?", "Can a spouse who remarries after 55 keep DIC?"),
    ("Can I get pension under 65?", "Can I get pension over 65?"),
    ("What does the fifty percent rating need?", "What does the seventy percent rating need?"),
    ("What is the rating for 50 and 30?", "What is the rating for 50 and 40?"),
])
def test_meaning_that_changes_the_answer_changes_the_key(first, second):
    key = gate_key_build(text=first.lower(), entities=[], topics=["disability_ratings"])
    other = gate_key_build(text=second.lower(), entities=[], topics=["disability_ratings"])
    assert key != other


@pytest.mark.parametrize(("first", "second"), [
    ("What does the 70% rating need?", "What does the seventy percent rating need?"),
    ("Can I get pension before 65?", "Can I get pension under age 65?"),
    ("I see my doctor monthly", "I see my doctor once a month"),
    ("I see my doctor every other month", "I see my doctor every 2 months"),
    ("What is the rating for tinnitus?", "How is tinnitus rated?"),
    ("Can I get TDIU if I can't work?", "Can I get TDIU if I am unable to work?"),
    ("$1,000 a month", "1000 dollars per month"),
])
def test_the_same_meaning_in_other_words_keeps_the_key(first, second):
    assert (gate_key_build(text=first.lower(), entities=[], topics=["t"])
            == gate_key_build(text=second.lower(), entities=[], topics=["t"]))


def test_the_key_holds_entities_but_not_glossary_terms():
    entities = [{"type": "dc_code", "value": "6260"}, {"type": "term", "value": "nexus letter"},
                {"type": "benefit", "value": "tdiu"}]
    assert gate_key_build(text="q", entities=entities, topics=["claims", "appeals"]) == (
        "t:claims|e:benefit:tdiu,dc_code:6260|n:|m:")


def test_rates_and_numbers_are_read_in_words_and_digits():
    meaning = question_meaning(text="Every two months, sixty-five dollars a month, not before 55")
    assert meaning.numbers == ("55", "65")
    assert meaning.rates == ("1/1month", "1/2month") and meaning.negated and meaning.comparisons == ("lt",)


def test_a_long_key_keeps_its_start_and_a_digest():
    key = gate_key_build(text=" ".join(str(n) for n in range(200)), entities=[], topics=["t"])
    assert len(key) == 500 and key.startswith("t:t|e:|n:0,1,10,100")


def test_intent_words_leave_the_entities_out():
    from knowledge.gate import gate_has_entities, intent_overlap, intent_words

    short = intent_words(text="What is the rating for TBI?", mentions=["TBI"])
    spelled = intent_words(text="How does VA rate traumatic brain injury?", mentions=["traumatic brain injury"])
    assert short == spelled == "rat"
    eligible = intent_words(text="Who is eligible for CHAMPVA?", mentions=["CHAMPVA"])
    dental = intent_words(text="Does CHAMPVA cover dental care?", mentions=["CHAMPVA"])
    assert intent_overlap(eligible, dental) == 0.0 and intent_overlap(short, spelled) == 1.0
    assert gate_has_entities("t:x|e:dc_code:8045|n:|m:") and not gate_has_entities("t:x|e:|n:|m:")
