import random
from dataclasses import replace

import pytest

from knowledge.patterns import (
    dates_find,
    dc_codes_find,
    dollar_amounts_find,
    four_digit_numbers_find,
    percentages_find,
    periods_find,
    va_forms_find,
)
from tests.verification.layers.sources import (
    CHUNKS,
    COMPENSATION_RATES,
    PTSD,
    TINNITUS,
)
from verification.layers.numbers import FactValue, facts_find, numbers_verify

ALL_CHUNKS = (*CHUNKS, COMPENSATION_RATES, PTSD)


def verify(answer: str, chunks=ALL_CHUNKS):
    return numbers_verify(answer=answer, chunks=chunks)


def test_invented_rating_and_code_are_both_lost():
    result = verify("Tinnitus is rated 30% under DC 6261 [1].", chunks=[TINNITUS])

    assert result.text == ""
    assert result.hallucinated_numbers == ("30%",)
    assert result.hallucinated_codes == ("6261",)
    assert result.removed_sentences == ("Tinnitus is rated 30% under DC 6261 [1].",)
    assert result.refuse is True
    assert result.to_dict() == {"hallucinated_numbers": ["30%"], "hallucinated_codes": ["6261"]}


def test_supported_answer_is_served_unchanged():
    answer = (
        "Tinnitus is rated 10% under diagnostic code 6260 [1]. You have 1 year to request a Higher-Level "
        "Review on VA Form 20-0996 [2].\nThe PACT Act became law on August 10, 2022 [3]."
    )

    result = verify(answer)

    assert result.text == answer
    assert result.hallucinated_numbers == result.hallucinated_codes == result.removed_sentences == ()
    assert result.refuse is False


def test_only_the_sentence_with_the_unsupported_value_goes():
    answer = (
        "Tinnitus is rated 10% under DC 6260 [1]. Tinnitus in both ears is rated 20% [1]. "
        "You can't submit new evidence with a Higher-Level Review [2]."
    )

    result = verify(answer)

    assert result.text == (
        "Tinnitus is rated 10% under DC 6260 [1]. You can't submit new evidence with a Higher-Level Review [2]."
    )
    assert result.hallucinated_numbers == ("20%",)
    assert result.refuse is False


def test_values_must_be_in_the_cited_chunk_not_just_anywhere():
    # 20% is in the compensation-rates chunk [4], but this sentence cites the tinnitus chunk.
    result = verify("Tinnitus can be rated 20% [1].")

    assert result.hallucinated_numbers == ("20%",)
    assert result.text == ""


def test_a_sentence_without_citations_is_checked_against_every_chunk():
    result = verify("A 20% rating pays $338.49 a month. A 30% rating pays $523.")

    assert result.text == "A 20% rating pays $338.49 a month."
    assert result.hallucinated_numbers == ("523",)


@pytest.mark.parametrize(
    ("sentence", "numbers", "codes"),
    [
        ("PTSD is rated under DC 9411 [5].", (), ()),
        ("PTSD is rated under DC 9434 [5].", (), ("9434",)),
        ("Lumbosacral strain is rated under 5237 [5].", (), ("5237",)),
        ("Degenerative arthritis is rated under 5003-5237 [5].", (), ("5003", "5237")),
        ("Hypertension is rated under diagnostic code 7101 [5].", (), ("7101",)),
        ("File on VA Form 21-526EZ [5].", (), ()),
        ("File on VA Form 21-526 [5].", (), ("21-526",)),
        ("Ask for a Higher-Level Review on VA Form 20-0995 [2].", (), ("20-0995",)),
        ("Bring your DD-214 [2].", (), ("DD-214",)),
        ("You have one year to ask for a Higher-Level Review [2].", (), ()),
        ("You have 180 days to ask for a Higher-Level Review [2].", ("180 days",), ()),
        ("You have 90 days to ask for a Higher-Level Review [2].", ("90 days",), ()),
        ("The PACT Act became law in August 2022 [3].", (), ()),
        ("The PACT Act became law on August 1, 2022 [3].", ("2022-08-01",), ()),
        ("The PACT Act became law on 8/10/2022 [3].", (), ()),
        ("A 10% rating pays $171.23 a month [4].", (), ()),
        ("A 10% rating pays $172 a month [4].", ("172",), ()),
        ("A 10% rating pays $1,171.23 a month [4].", ("1171.23",), ()),
        ("The ratings go up to 100 percent [5].", (), ()),
        ("The ratings go up to ninety percent [5].", ("90%",), ()),
    ],
)
def test_each_kind_of_fact(sentence, numbers, codes):
    result = verify(sentence)

    assert result.hallucinated_numbers == numbers
    assert result.hallucinated_codes == codes
    assert (result.text == sentence) is (not numbers and not codes)


def test_years_that_are_years_in_the_sources_are_not_codes():
    # 2022 appears in the PACT Act chunk as a year; the sentence cites another chunk.
    result = verify("Tinnitus ratings did not change in 2022 [1].")

    assert result.text == "Tinnitus ratings did not change in 2022 [1]."


def test_an_invented_year_is_reported_as_a_number():
    result = verify("The PACT Act became law in 2021 [3].")

    assert result.hallucinated_numbers == ("2021",)
    assert result.hallucinated_codes == ()


def test_a_source_in_words_supports_the_answer_in_figures():
    chunk = replace(TINNITUS, content="Tinnitus is rated at ten percent, within one year of discharge.")

    result = verify("Tinnitus is rated 10% if claimed within 1 year [1].", chunks=[chunk])

    assert result.hallucinated_numbers == ()


def test_a_cfr_rating_table_cell_supports_a_percentage():
    chunk = replace(
        TINNITUS,
        title="38 CFR 4.87 Schedule of ratings \u2014 ear",
        content="6211 Tympanic membrane, perforation of | 0\n6260 Tinnitus, recurrent | 10\nNote (2): ...",
    )

    result = verify("Recurrent tinnitus is rated 10% under DC 6260 [1].", chunks=[chunk])

    assert result.hallucinated_numbers == ()
    assert verify("Recurrent tinnitus is rated 30% [1].", chunks=[chunk]).hallucinated_numbers == ("30%",)


def test_the_diagnostic_code_field_supports_a_code():
    chunk = replace(TINNITUS, content="Tinnitus is rated 10%.", title="Ringing in the ears")

    assert verify("Tinnitus is DC 6260 [1].", chunks=[chunk]).hallucinated_codes == ()


def test_vas_own_numbers_pass_and_invented_phone_numbers_do_not():
    answer = "Call VA at 1-800-827-1000 [1]. Or call the claims hotline at 1-800-555-0199 [1]."

    result = verify(answer)

    assert result.text == "Call VA at 1-800-827-1000 [1]."
    assert result.hallucinated_numbers == ("800-555-0199",)


def test_a_sentence_citing_only_missing_sources_supports_nothing():
    result = verify("Tinnitus is rated 10% [9].")

    assert result.hallucinated_numbers == ("10%",)


def test_layout_survives_a_removal():
    answer = (
        "Here is what the sources say:\n\n"
        "- Tinnitus is rated 10% [1]\n"
        "- Tinnitus is rated 30% [1]\n"
        "- You have 1 year to ask for a Higher-Level Review [2]"
    )

    result = verify(answer)

    assert result.text == (
        "Here is what the sources say:\n\n- Tinnitus is rated 10% [1]\n- You have 1 year to ask for a "
        "Higher-Level Review [2]"
    )


def test_refuses_when_only_filler_is_left():
    answer = "Here is what I found:\nTinnitus is rated 30% [1]. PTSD is rated under DC 9999 [5]. I hope this helps."

    result = verify(answer)

    assert result.text == "Here is what I found:\nI hope this helps."
    assert result.refuse is True
    assert result.hallucinated_codes == ("9999",)


def test_uncited_answer_refuses_only_when_nothing_substantial_is_left():
    kept = verify("A 10% rating pays $171.23 a month. A 30% rating pays $523 a month.")
    emptied = verify("A 30% rating pays $523 a month. Thanks!")

    assert kept.refuse is False
    assert emptied.refuse is True


def test_facts_find_canonical_values():
    assert facts_find("Rated seventy percent under DC 9411 on VA Form 21-526EZ within 90 days, paid $1,000.") == (
        FactValue("percentage", "70%"),
        FactValue("dollar_amount", "1000"),
        FactValue("period", "90 days"),
        FactValue("va_form", "21-526EZ"),
        FactValue("diagnostic_code", "9411"),
    )


# --- property: the served text never contains a figure its sources do not ---------------------------------

_TEMPLATES = (
    "Tinnitus is rated {pct} under DC {code}",
    "You have {period} to request a Higher-Level Review on VA Form {form}",
    "The PACT Act became law on {date}",
    "A 10% rating pays {amount} a month",
    "Rates changed in {year}",
    "PTSD ratings include {pct} and {pct2}",
    "Claims under {code} use VA Form {form} within {period}",
)
_POOLS = {
    "pct": ("10%", "20%", "30%", "70%", "100%", "45%", "ten percent"),
    "pct2": ("0%", "50%", "60%", "100%"),
    "code": ("6260", "6261", "9411", "9434", "5237", "7101"),
    "period": ("1 year", "one year", "180 days", "90 days", "2 years"),
    "form": ("20-0996", "20-0995", "21-526EZ", "10182", "21-4138"),
    "date": ("August 10, 2022", "August 1, 2021", "December 1, 2023", "August 2022", "10/08/2022"),
    "amount": ("$171.23", "$172", "$338.49", "$1,000", "$523"),
    "year": ("2022", "2023", "2019", "1990"),
}
_FINDERS = (percentages_find, dollar_amounts_find, periods_find, dates_find, va_forms_find)


def _figures(text: str) -> set[str]:
    figures = {value for finder in _FINDERS for value in finder(text)}
    return figures | set(dc_codes_find(text)) | set(four_digit_numbers_find(text))


def _random_answer(rng: random.Random) -> str:
    sentences = []
    for _ in range(rng.randint(1, 6)):
        template = rng.choice(_TEMPLATES)
        sentence = template.format(**{slot: rng.choice(pool) for slot, pool in _POOLS.items()})
        cited = rng.sample(range(1, 7), k=rng.choice((0, 1, 1, 2)))
        sentences.append(sentence + "".join(f" [{number}]" for number in cited) + ".")
    return "".join(sentence + rng.choice((" ", "\n", "\n- ")) for sentence in sentences)


def test_property_served_text_never_states_a_figure_its_sources_do_not():
    rng = random.Random(20240601)
    sources = set().union(*(_figures(f"{chunk.title}\n{chunk.content}") for chunk in ALL_CHUNKS))
    sources |= {chunk.diagnostic_code for chunk in ALL_CHUNKS if chunk.diagnostic_code}
    removed_any = kept_any = 0
    for _ in range(400):
        answer = _random_answer(rng)

        result = verify(answer)

        unsupported = {
            figure
            for figure in _figures(result.text) - sources
            if not any(source.startswith(figure + "-") for source in sources)  # "2022-08" of "2022-08-10"
        }
        assert not unsupported, (answer, result.text)
        reported = set(result.hallucinated_numbers) | set(result.hallucinated_codes)
        assert reported <= _figures(answer)
        removed_any += bool(result.removed_sentences)
        kept_any += bool(result.text)
    assert removed_any > 100 and kept_any > 100  # the property was exercised both ways


def test_a_blank_answer_refuses():
    assert verify("  \n").refuse is True


def test_numbers_inside_links_are_not_facts():
    answer = (
        "Read the [tinnitus page](https://www.veteransbenefitskb.com/ears#6260?ref=2019) and "
        "https://www.va.gov/2021/08/rates [1]."
    )

    assert verify(answer, chunks=[replace(TINNITUS, diagnostic_code="", content="Tinnitus page.")]).text == answer
