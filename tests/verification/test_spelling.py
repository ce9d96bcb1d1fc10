"""Misspelled words read as the knowledge base's words: one edit away, never a known English word."""

import pytest

from verification.spelling import spelling_correct

CORPUS = {"right": 300, "rating": 900, "percent": 700, "tinnitus": 80, "college": 40, "supplemental": 60, "appeal": 300,
          "done": 5, "wife": 30, "ratings": 200, "bill": 100}
ENGLISH = frozenset({"dose", "rating", "percent", "college", "appeal", "dates", "im"})


@pytest.mark.parametrize(("asked", "read"), [
    ("whats the raiting for ptsd at 50 precent", "whats the rating for ptsd at 50 percent"),
    ("my Tinitus is bad", "my tinnitus is bad"),
    ("does the gi bil pay for colege", "does the gi bil pay for college"),  # "bil" is too short to guess
    ("suplemental claim", "supplemental claim"),
])
def test_a_word_one_edit_from_a_corpus_word_is_read_as_it(asked, read):
    assert spelling_correct(text=asked, corpus_words=CORPUS, known=ENGLISH) == read


@pytest.mark.parametrize("asked", [
    "how long dose a claim take",  # an English word, even if not the one meant
    "i dont have my records",  # a contraction without its apostrophe, not "done"
    "what about desicion letters",  # two edits from "decision": not guessed
    "my kowalski file",  # a name no corpus word is one edit from
    "its my left arm and im a righty",  # an everyday word the English list lacks, not "right"
])
def test_known_words_contractions_and_far_words_are_left_alone(asked):
    assert spelling_correct(text=asked, corpus_words=CORPUS, known=ENGLISH) == asked


def test_the_most_frequent_neighbour_wins():
    assert spelling_correct(text="ratinga", corpus_words={"rating": 1, "ratings": 9}, known=frozenset()) == "ratings"


def test_a_word_one_inflection_letter_from_a_corpus_word_is_left_alone():
    # "diagnose" is in neither list, but "diagnosed" is the corpus's: a word, not a misspelling.
    corpus = {"diagnosed": 50, "rating": 900}
    assert spelling_correct(text="can you diagnose my knee", corpus_words=corpus, known=frozenset()) == \
        "can you diagnose my knee"
    assert spelling_correct(text="raitings", corpus_words={"ratings": 5}, known=frozenset()) == "ratings"
