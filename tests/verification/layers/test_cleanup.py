import pytest

from verification.layers.cleanup import (
    citations_cleanup,
    citations_used,
    sentences_split,
)


def clean(answer: str, source_count: int = 3):
    return citations_cleanup(answer=answer, source_count=source_count)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("Tinnitus is rated 10% [1, 2].", "Tinnitus is rated 10% [1][2]."),
        ("Tinnitus is rated 10% [1,3].", "Tinnitus is rated 10% [1][3]."),
        ("Tinnitus is rated 10% [1-3].", "Tinnitus is rated 10% [1][2][3]."),
        ("Tinnitus is rated 10% [1\u20133].", "Tinnitus is rated 10% [1][2][3]."),
        ("Tinnitus is rated 10% [1][2].", "Tinnitus is rated 10% [1][2]."),
        ("Tinnitus is rated 10% [2] [1].", "Tinnitus is rated 10% [1][2]."),
        ("Tinnitus is rated 10%\u00b9\u00b2.", "Tinnitus is rated 10% [1][2]."),
        ("Tinnitus is rated 10%\u00b9,\u00b3.", "Tinnitus is rated 10% [1][3]."),
        ("Tinnitus is rated 10%[^1].", "Tinnitus is rated 10% [1]."),
        ("Tinnitus is rated 10% (Source 1).", "Tinnitus is rated 10% [1]."),
        ("Tinnitus is rated 10% (Sources 1 and 3).", "Tinnitus is rated 10% [1][3]."),
        ("Tinnitus is rated 10% (source: 2).", "Tinnitus is rated 10% [2]."),
        ("Tinnitus is rated 10% [Source 1, Source 2].", "Tinnitus is rated 10% [1][2]."),
        ("Tinnitus is rated 10% [1][1].", "Tinnitus is rated 10% [1]."),
    ],
)
def test_citation_forms_become_n(answer, expected):
    result = clean(answer)

    assert result.text == expected
    assert result.removed_citations == ()


def test_markers_naming_no_source_are_dropped_and_reported():
    result = clean("Tinnitus is rated 10% [1][9]. File within 1 year [0] . Use Form 20-0996 [2, 7].")

    assert result.text == "Tinnitus is rated 10% [1]. File within 1 year. Use Form 20-0996 [2]."
    assert result.removed_citations == ("[9]", "[0]", "[7]")


def test_every_form_out_of_range_is_dropped():
    result = clean("A [4-5]. B (Source 6). C\u2079. D [^8].", source_count=3)

    assert result.text == "A. B. C. D."
    assert result.removed_citations == ("[4]", "[5]", "[6]", "[9]", "[8]")


def test_superscript_units_are_not_citations():
    result = clean("A scar of 39 sq. cm\u00b2 is rated 10% [1].")

    assert result.text == "A scar of 39 sq. cm\u00b2 is rated 10% [1]."


def test_superscript_number_within_range_is_one_citation():
    assert clean("Rated 10%\u00b9\u00b2.", source_count=12).text == "Rated 10% [12]."


def test_a_trailing_sources_list_is_removed_whole_and_absent_entries_reported():
    answer = (
        "Tinnitus is rated 10% [1].\n\n"
        "**Sources:**\n"
        "- [1] 6260 Ringing in the Ears (Tinnitus), https://www.veteransbenefitskb.com/ears#6260\n"
        "- [9] VA tinnitus fact sheet, https://evil.example.com/tinnitus\n"
    )

    result = clean(answer)

    assert result.text == "Tinnitus is rated 10% [1]."
    assert result.removed_citations == ("[9]",)


@pytest.mark.parametrize(
    "sources_list",
    [
        "References: [1], [2]",
        "Sources:\n1. Higher-Level Review\n2. PACT Act",
        "### References\n[1]: https://www.va.gov/decision-reviews/higher-level-review/",
        "[^1]: https://www.va.gov/decision-reviews/higher-level-review/",
    ],
)
def test_sources_list_forms(sources_list):
    result = clean(f"You have 1 year to ask for a Higher-Level Review [1].\n\n{sources_list}")

    assert result.text == "You have 1 year to ask for a Higher-Level Review [1]."


def test_prose_about_sources_is_not_a_list():
    answer = "Sources of evidence include service treatment records [1].\nSources:\nYour doctor can help [2]."

    assert clean(answer).text == answer


def test_markdown_links_are_not_citations():
    answer = "See [1](https://www.va.gov/) and [the VA page](https://www.va.gov/disability/) [2]."

    assert clean(answer).text == answer


def test_tidies_spaces_before_punctuation_and_empty_brackets():
    result = clean("Tinnitus is rated 10% ( [9] ) , under DC 6260  [1] .")

    assert result.text == "Tinnitus is rated 10%, under DC 6260 [1]."


def test_keeps_paragraphs_and_list_layout():
    answer = "Options:\n\n- Higher-Level Review [1]\n- Supplemental Claim [2]\n\n\n\nThat is all [3]."

    assert clean(answer).text == "Options:\n\n- Higher-Level Review [1]\n- Supplemental Claim [2]\n\nThat is all [3]."


def test_no_sources_drops_every_marker():
    result = clean("Tinnitus is rated 10% [1].", source_count=0)

    assert result.text == "Tinnitus is rated 10%."
    assert result.removed_citations == ("[1]",)
    assert result.to_dict() == {"removed_citations": ["[1]"]}


def test_citations_used():
    assert citations_used("A [3]. B [1][3]. C [2](https://www.va.gov/). D [^4].") == (1, 3)
    assert citations_used("No citations.") == ()


def test_sentences_split_round_trips_and_keeps_markers_with_their_sentence():
    text = (
        "Tinnitus is rated 10%. [1] It uses DC 6260 (see 38 C.F.R. \u00a7 4.87) [1]. e.g. the U.S. Army counts.\n"
        "- Higher-Level Review: 1 year [2]\n\n- Supplemental Claim! Really? Yes."
    )

    sentences = sentences_split(text)

    assert "".join(sentences) == text
    assert [sentence.strip() for sentence in sentences] == [
        "Tinnitus is rated 10%. [1]",
        "It uses DC 6260 (see 38 C.F.R. \u00a7 4.87) [1]. e.g. the U.S. Army counts.",
        "- Higher-Level Review: 1 year [2]",
        "- Supplemental Claim!",
        "Really?",
        "Yes.",
    ]


def test_sentences_split_keeps_decimals_and_abbreviations_whole():
    text = "The payment is $171.23 a month. Dr. Smith and No. 5 apply [1]."

    assert [sentence.strip() for sentence in sentences_split(text)] == [
        "The payment is $171.23 a month.",
        "Dr. Smith and No. 5 apply [1].",
    ]
