"""The offline generator on hand-made chunks and vectors: which sentences and rows it serves, and how."""

import re
from dataclasses import replace

import numpy as np
import pytest

from knowledge.extraction import lay_terms_expand
from verification.generators.extractive import extractive_generate
from verification.layers.types import SourceChunk


def vec(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


QUESTION_VECTOR = vec(1, 0, 0, 0)
# Close to the question; a little further and unlike ON_TOPIC and NEAR (cosine < 0.9, not redundant); unrelated.
ON_TOPIC, NEAR, LEAD, OFF = vec(1, 0.2, 0, 0), vec(1, 0.6, 0, 0), vec(1, 0, 0.5, 0), vec(0, 0, 1, 0)


def chunk(number: int, chunk_id: int, score: float, content: str = "") -> SourceChunk:
    return SourceChunk(number=number, chunk_id=chunk_id, entry_id=f"e{chunk_id}", title=f"T{chunk_id}",
                       url=f"https://www.va.gov/{chunk_id}", content=content, score=score)


DIAGNOSIS = [
    ("A diagnosis of chronic fatigue syndrome needs six months of debilitating fatigue.", ON_TOPIC),
    ("Other conditions must be ruled out first.", NEAR),
    ("Six of ten listed findings must be present.", NEAR),
]
TABLE = [
    ("DC 6354 chronic fatigue syndrome is rated on how much symptoms restrict daily activity:", LEAD),
    ("10% — symptoms wax and wane", OFF),
    ("40% — incapacitation of 4 to less than 6 weeks a year", OFF),
    ("100% — almost completely restrict routine daily activities", OFF),
]


def benefit_page(number: int, title: str, score: float, benefit: str) -> SourceChunk:
    """A chunk numbered and identified by ``number``, titled ``title`` and linked to one benefit."""
    return replace(chunk(number, number, score), title=title, benefits=frozenset({benefit}))


def generate(question: str, units: dict, scores: dict[int, float], types: dict[int, str] | None = None):
    chunks = [chunk(n, cid, scores[cid]) for n, cid in enumerate(scores, start=1)]
    return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks, units=units,
                               chunk_types=types or {})


def answer_from(question: str, chunks: list[SourceChunk], units: dict, **options) -> str:
    """The answer text to ``question`` from hand-made chunks (titles, codes, benefits set by the test)."""
    return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks, units=units,
                               **options).text


def test_every_line_is_a_cited_source_sentence():
    result = generate("what is needed for a CFS diagnosis", {1: DIAGNOSIS, 2: TABLE}, {1: 0.7, 2: 0.6})
    sentences = [text for text, _ in DIAGNOSIS + TABLE]
    for line in re.split(r"(?<=[.:])\s+|\n", result.text):
        if line.strip():
            assert re.search(r"\[\d\]", line), line
            assert any(re.sub(r"\s*\[\d\]", "", line).lstrip("- ").rstrip(".:") in s for s in sentences), line


def test_a_levels_question_gets_the_table_of_the_next_source_when_the_best_has_none():
    result = generate("what percent for a diagnosis of debilitating fatigue", {1: DIAGNOSIS, 2: TABLE}, {1: 0.8, 2: 0.6},
                      {2: "rating_table"})
    # The levels asked for lead; the explanation of the best source follows them.
    assert result.text.startswith("DC 6354 chronic fatigue syndrome is rated")
    assert result.text.index("- 100%") < result.text.index("A diagnosis of chronic fatigue syndrome")
    assert "40% — incapacitation of 4 to less than 6 weeks a year [2]" in result.text
    assert "- 10% — symptoms wax and wane [2]\n- 40%" in result.text
    # The table's lead keeps its colon because its rows follow it.
    assert "restrict daily activity [2]:\n- 10%" in result.text


def test_a_question_for_the_percentages_gets_the_table_of_the_next_source():
    # "radiculopathy percentages mild moderate severe": "percentages" asks for the levels as "percent" does.
    result = generate("debilitating fatigue percentages", {1: DIAGNOSIS, 2: TABLE}, {1: 0.8, 2: 0.6},
                      {2: "rating_table"})
    assert result.text.startswith("DC 6354 chronic fatigue syndrome is rated") and "- 40%" in result.text


def test_a_yes_no_question_is_answered_by_the_explanation_before_the_table():
    result = generate("do I need a diagnosis of debilitating fatigue for a rating", {1: DIAGNOSIS, 2: TABLE},
                      {1: 0.8, 2: 0.6}, {2: "rating_table"})
    assert result.text.startswith("A diagnosis of chronic fatigue syndrome") and "- 40%" in result.text


PTSD_TABLE = [
    ("PTSD is diagnostic code 9411, rated under the General Rating Formula for Mental Disorders:", LEAD),
    ("0% — diagnosed, no effect on work", OFF),
    ("30% — occasional decrease in work efficiency", OFF),
    ("70% — deficiencies in most areas such as work, family, judgment", OFF),
    ("100% — total occupational and social impairment", OFF),
]
LOW_LEVELS = [
    ("General Rating Formula for Mental Disorders, lowest levels:", LEAD),
    ("10% — mild or transient symptoms", ON_TOPIC),
    ("0% — formally diagnosed, symptoms not severe", ON_TOPIC),
]


def test_a_question_about_one_level_gets_that_levels_criteria_only():
    result = generate("what is the PTSD rating at 70 percent", {1: LOW_LEVELS, 2: PTSD_TABLE}, {1: 0.7, 2: 0.6},
                      {1: "rating_table", 2: "rating_table"})
    assert result.text.startswith("PTSD is diagnostic code 9411")
    assert "- 70% — deficiencies in most areas" in result.text
    assert not re.search(r"^- (?:0|10|30|100)%", result.text, re.MULTILINE), result.text


def test_a_question_about_the_rating_gets_every_level_in_order():
    result = generate("how is PTSD rated", {1: PTSD_TABLE}, {1: 0.7}, {1: "rating_table"})
    assert re.findall(r"^- (\d+)%", result.text, re.MULTILINE) == ["0", "30", "70", "100"]


def test_the_level_asked_about_is_read_from_a_lower_ranked_source():
    others = {n: [(f"Mental health claims need a diagnosis, note {n}.", NEAR)] for n in (3, 4, 5)}
    result = generate("what does a 70% PTSD rating require", {**others, 2: PTSD_TABLE},
                      {3: 0.8, 4: 0.79, 5: 0.78, 2: 0.7}, {2: "rating_table"})
    assert "70% — deficiencies in most areas" in result.text


def test_another_conditions_sentence_does_not_join_the_answer():
    apnea = [("DC 6847 sleep apnea is rated on treatment and symptoms:", LEAD),
             ("50% — requires a CPAP machine", OFF)]
    respiratory = [("Asthma under DC 6602 is rated on pulmonary function tests.", ON_TOPIC),
                   ("That range includes sleep apnea and other lung diseases.", ON_TOPIC)]
    result = extractive_generate(
        question="how is sleep apnea rated", question_vector=QUESTION_VECTOR, units={1: apnea, 2: respiratory},
        chunks=[chunk(1, 1, 0.8, "DC 6847 sleep apnea"), chunk(2, 2, 0.79, "DC 6602 asthma")],
        chunk_types={1: "rating_table"}, condition_names={"asthma": "6602", "sleep apnea": "6847"},
    )
    assert "50% — requires a CPAP machine" in result.text
    assert "Asthma" not in result.text and "That range" not in result.text


def test_a_how_much_question_does_not_borrow_another_sources_table():
    result = generate("how much after a diagnosis of debilitating fatigue", {1: DIAGNOSIS, 2: TABLE}, {1: 0.7, 2: 0.6},
                      {2: "rating_table"})
    assert result.text.startswith("A diagnosis") and "40%" not in result.text


def test_a_table_lead_served_without_its_rows_does_not_end_in_a_colon():
    # Not a rating question: the second source adds its lead sentence only.
    result = generate("tell me about chronic fatigue syndrome", {1: DIAGNOSIS, 2: TABLE[:1]}, {1: 0.7, 2: 0.69})
    assert "daily activity [2]." in result.text
    assert not result.text.rstrip().endswith(":")


def test_nothing_to_say_gives_empty_text():
    assert generate("anything", {}, {1: 0.7}).text == ""


def test_a_source_naming_the_asked_form_is_used_even_when_others_score_higher():
    other = [("VA Form 21-686c adds dependents to an award.", NEAR)]
    asked = [("VA Form 21-22 appoints a veterans service organization as your representative.", LEAD)]
    chunks = [chunk(1, 1, 0.50), chunk(2, 2, 0.49), chunk(3, 3, 0.48),
              chunk(4, 4, 0.43, "VA Form 21-22 appoints a veterans service organization as your representative.")]
    result = extractive_generate(question="what is VA form 21-22 for", question_vector=QUESTION_VECTOR, chunks=chunks,
                                 units={1: other, 2: other, 3: other, 4: asked})
    assert "21-22 appoints" in result.text and "[4]" in result.text


def test_a_borrowed_table_keeps_the_answer_within_its_length():
    from verification.generators.extractive import MAX_CHARS

    long_first = [("A diagnosis of chronic fatigue syndrome needs " + "many listed findings, " * 50 + "in all.", ON_TOPIC),
                  ("Once diagnosed, it is rated from 10 to 100 percent.", NEAR)]
    result = generate("what percent for a diagnosis of debilitating fatigue", {1: long_first, 2: TABLE},
                      {1: 0.8, 2: 0.6}, {2: "rating_table"})
    assert "40% — incapacitation" in result.text and "rated from 10 to 100 percent [1]" in result.text
    assert "many listed findings" not in result.text
    assert len(result.text) <= MAX_CHARS + 200  # the markers and list dashes add a little


def test_a_code_the_question_names_in_words_counts_like_a_written_one():
    other = [("Exams are scheduled by VA after you file.", NEAR)]
    asked = [("Bipolar disorder is DC 9432, rated under the mental disorders formula.", LEAD)]
    chunks = [chunk(1, 1, 0.50), chunk(2, 2, 0.49), chunk(3, 3, 0.48),
              chunk(4, 4, 0.43, "Bipolar disorder is DC 9432, rated under the mental disorders formula.")]
    units = {1: other, 2: other, 3: other, 4: asked}
    question = "I have bipolar disorder, does VA only look at the exam day?"
    without = extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks, units=units)
    assert "9432" not in without.text
    named = extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks, units=units,
                                codes=["9432"])
    assert "DC 9432" in named.text and "[4]" in named.text


def test_a_question_naming_a_code_adds_only_sources_that_name_it_too():
    asked = [("DC 7522 covers erectile dysfunction under 38 CFR 4.115b.", ON_TOPIC)]
    generic = [("A diagnostic code is the four-digit number of a condition in the rating schedule.", LEAD)]
    also = [("Special monthly compensation can be paid with DC 7522 for loss of use.", LEAD)]
    chunks = [chunk(1, 1, 0.6, asked[0][0]), chunk(2, 2, 0.59, generic[0][0]), chunk(3, 3, 0.58, also[0][0])]
    result = extractive_generate(question="what is DC 7522", question_vector=QUESTION_VECTOR, chunks=chunks,
                                 units={1: asked, 2: generic, 3: also})
    assert "erectile dysfunction" in result.text and "loss of use" in result.text
    assert "four-digit number" not in result.text


def test_an_amount_table_is_served_as_a_list_with_its_lead():
    table = [("DIC monthly amounts for a surviving spouse, effective December 1, 2025:", ON_TOPIC),
             ("Basic monthly rate — $1,699.36", NEAR),
             ("Aid and Attendance add-on — $421.00", OFF),
             ("DIC is tax free.", OFF)]
    result = generate("how much DIC does a surviving spouse get", {1: table}, {1: 0.7}, {1: "rating_table"})
    assert result.text.startswith("DIC monthly amounts for a surviving spouse, effective December 1, 2025 [1]:\n")
    assert "\n- Basic monthly rate — $1,699.36 [1]\n- Aid and Attendance add-on — $421.00 [1]" in result.text


def test_a_sentence_leaning_on_the_one_before_brings_it_along():
    lead = [("There is no deadline to file a Supplemental Claim.", ON_TOPIC),
            ("VA recommends filing within one year from the date on your decision letter.", OFF),
            ("Filing within that year keeps the claim continuously pursued.", ON_TOPIC)]
    result = extractive_generate(question="how long do i have to file a supplemental claim",
                                 question_vector=QUESTION_VECTOR, chunks=[chunk(1, 1, 0.6)], units={1: lead})
    assert result.text.index("within one year") < result.text.index("that year")


def table_below_the_best_few(question: str, table_title: str, types: dict[int, str]) -> str:
    """Three prose sources above a PTSD-style table titled ``table_title``, ranked fourth."""
    prose = {n: [(f"Mental health claims need a diagnosis and a stressor, note {n}.", ON_TOPIC)] for n in (3, 4, 5)}
    scores = {3: 0.8, 4: 0.79, 5: 0.78, 2: 0.7}
    titles = {2: table_title, 3: "Stressors", 4: "Evidence", 5: "Two diagnoses"}
    chunks = [SourceChunk(number=n, chunk_id=cid, entry_id=f"e{cid}", title=titles[cid], url="https://www.va.gov/x",
                          content="", score=scores[cid]) for n, cid in enumerate(scores, start=1)]
    return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                               units={**prose, 2: PTSD_TABLE}, chunk_types=types).text


def test_a_table_titled_with_the_asked_condition_is_read_from_below_the_best_few():
    table = {2: "rating_table"}
    levels = re.findall(r"^- (\d+)%", table_below_the_best_few("How does VA rate PTSD?", "PTSD rating, DC 9411", table),
                        re.MULTILINE)
    assert levels == ["0", "30", "70", "100"]
    # Not a rating table, not titled with the condition asked about, or a table naming no condition's code: the
    # best few answer alone.
    assert "- 70%" not in table_below_the_best_few("How does VA rate PTSD?", "PTSD rating, DC 9411", {})
    assert "- 70%" not in table_below_the_best_few("How does VA rate tinnitus?", "PTSD rating, DC 9411", table)
    assert "- 70%" not in table_below_the_best_few("what does a rating pay", "Monthly pay rates by rating", table)


def test_an_application_question_is_answered_with_the_form():
    rules = [("Individual Unemployability needs a disability that keeps you from steady work.", ON_TOPIC)]
    form = [("You apply for Individual Unemployability on VA Form 21-8940 with your employment history.", OFF)]
    units, scores = {1: rules, 2: form}, {1: 0.72, 2: 0.6}
    assert "21-8940" in generate("how do i apply for unemployability", units, scores).text
    assert "21-8940" in generate("is there a special form for unemployability", units, scores).text
    # Not asked how to apply: the form's sentence is too far from the question to join.
    assert "21-8940" not in generate("what does unemployability need", units, scores).text


def test_the_benefits_own_name_does_not_decide_which_of_its_sources_answers():
    overview = [("Voc rehab helps veterans with service-connected disabilities find and keep suitable jobs.", ON_TOPIC)]
    stipend = [("While in a training plan you receive a monthly subsistence stipend.", LEAD)]
    units = {1: overview, 2: stipend}
    chunks = [chunk(1, 1, 0.7), chunk(2, 2, 0.65)]

    def lead(**kwargs):
        return extractive_generate(question="does voc rehab pay a monthly stipend", question_vector=QUESTION_VECTOR,
                                   chunks=chunks, units=units, **kwargs).text.split(" [")[0]

    assert lead().startswith("Voc rehab helps")
    assert lead(name_words=frozenset({"voc", "rehab"})).startswith("While in a training plan")


def test_a_sources_own_question_and_its_bare_yes_or_no_are_not_served():
    faq = [("Can I get 10 percent for each ear?", ON_TOPIC),
           ("No. Only a single evaluation is allowed for recurrent tinnitus, so 10 percent is the maximum.", NEAR)]
    text = generate("is 10 percent the most for tinnitus in both ears", {1: faq}, {1: 0.8}).text
    assert "?" not in text and not text.startswith("No")
    assert text.startswith("Only a single evaluation is allowed")


def test_without_the_benefits_name_a_question_of_frame_words_only_keeps_its_name():
    overview = [("Voc rehab helps veterans with service-connected disabilities find and keep suitable jobs.", ON_TOPIC)]
    hospital = [("A hospital stay must last longer than 21 days for a temporary total rating.", LEAD)]
    units = {1: overview, 2: hospital}
    chunks = [chunk(1, 1, 0.7), chunk(2, 2, 0.6)]
    text = extractive_generate(question="how long does voc rehab last", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units=units, name_words=frozenset({"voc", "rehab"})).text
    assert text.startswith("Voc rehab helps")


def test_a_source_only_on_another_benefit_does_not_answer_for_the_one_named():
    training = [("Voc rehab can pay for a college degree when it is part of your rehabilitation plan.", ON_TOPIC)]
    dea = [("With a permanent and total rating, your children can use DEA for college.", ON_TOPIC)]
    units = {1: training, 2: dea}
    chunks = [replace(chunk(1, 1, 0.7), benefits=frozenset({"vre"})),
              replace(chunk(2, 2, 0.66), benefits=frozenset({"dea", "p_and_t"}))]

    def lead(benefits: frozenset[str]) -> str:
        return extractive_generate(question="I'm P&T, can my kids get money for college",
                                   question_vector=QUESTION_VECTOR, chunks=chunks, units=units,
                                   benefits=benefits).text

    assert lead(frozenset()).startswith("Voc rehab can pay")
    assert lead(frozenset({"p_and_t"})).startswith("With a permanent and total rating")
    # A benefit belongs to its family: the Post-9/11 GI Bill's source answers for "the GI Bill".
    chunks = [replace(chunk(1, 1, 0.7), benefits=frozenset({"vre"})),
              replace(chunk(2, 2, 0.66), benefits=frozenset({"gi_bill_post_911"}))]
    assert lead(frozenset({"gi_bill"})).startswith("With a permanent")


TIERS = [
    ("Your percentage of the benefit depends on your active-duty service.", ON_TOPIC),
    ("100% — at least 36 months of active duty", NEAR),
    ("90% — at least 30 months but less than 36 months", NEAR),
    ("60% — at least 6 months but less than 18 months", OFF),
    ("50% — at least 90 days but less than 6 months", NEAR),
]


def test_some_rows_of_a_table_bring_the_whole_table_in_order():
    text = generate("i served 8 months of active duty, what share of the benefit do i get", {1: TIERS}, {1: 0.7}).text
    rows = [line for line in text.splitlines() if line.startswith("- ")]
    # The asker's own tier (8 months) leads; the others follow in the table's order.
    assert [row[2:5] for row in rows] == ["60%", "100", "90%", "50%"]


def test_a_row_whose_label_runs_long_is_still_listed_as_a_row():
    burial = [("VA burial allowance maximums, by date of death:", ON_TOPIC),
              ("Service-connected death on or after September 11, 2001 — up to $2,000", NEAR),
              ("Non-service-connected death from October 1, 2019 to September 30, 2020 — $300 burial allowance and "
               "$796 plot allowance", ON_TOPIC)]
    text = generate("how much does VA pay for burial if the death was not service connected", {1: burial}, {1: 0.7},
                    {1: "rating_table"}).text
    rows = [line for line in text.splitlines() if line.startswith("- ")]
    assert [row[:24] for row in rows] == ["- Service-connected deat", "- Non-service-connected "]


def test_what_percentage_asks_for_the_levels():
    text = generate("what percentage do i get for 8 months", {1: TIERS}, {1: 0.7}, {1: "rating_table"}).text
    assert text.startswith("- 60% — at least 6 months") and "Your percentage of the benefit depends" in text
    text = generate("what percentage do i get", {1: TIERS}, {1: 0.7}, {1: "rating_table"}).text
    assert text.startswith("Your percentage of the benefit depends") and "60% — at least 6 months" in text


def test_another_codes_table_earns_nothing_for_naming_the_asked_code():
    flatfoot = [("Flat feet are rated by how severe they are:", ON_TOPIC),
                ("20% — severe, one foot", OFF), ("30% — severe, both feet", OFF)]
    other = [("Conditions with their own codes, such as flatfoot (DC 5276), are rated under those codes.", NEAR),
             ("10% — moderate", OFF), ("30% — severe", OFF)]
    chunks = [replace(chunk(1, 1, 0.7), diagnostic_code="5276"), replace(chunk(2, 2, 0.68), diagnostic_code="5284")]
    text = extractive_generate(question="flat feet rating if only one foot is severe", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units={1: flatfoot, 2: other}, codes=("5276",),
                               chunk_types={1: "rating_table", 2: "rating_table"}).text
    assert text.startswith("Flat feet are rated") and "20% — severe, one foot" in text


def test_a_yes_no_question_after_what_the_asker_says_is_still_one():
    result = generate("I have CFS, do I need every symptom for a diagnosis of debilitating fatigue to get a rating",
                      {1: DIAGNOSIS, 2: TABLE}, {1: 0.8, 2: 0.6}, {2: "rating_table"})
    assert result.text.startswith("A diagnosis of chronic fatigue syndrome")


def test_the_best_full_text_hit_is_read_from_below_the_best_few():
    near = [(f"Sentence {n} on another rule of retroactive pay.", NEAR) for n in range(3)]
    offset = [("Military retired pay is reduced by the VA compensation you are paid for the same months.", ON_TOPIC)]
    units = {1: near[:1], 2: near[1:2], 3: near[2:], 4: offset}
    chunks = [chunk(1, 1, 0.7), chunk(2, 2, 0.69), chunk(3, 3, 0.68), chunk(4, 4, 0.6)]

    def text(rank: int) -> str:
        return extractive_generate(question="why was my retro check less than expected, I'm a military retiree",
                                   question_vector=QUESTION_VECTOR, units=units,
                                   chunks=[*chunks[:3], replace(chunks[3], lexical_rank=rank)]).text

    assert "Military retired pay" not in text(0) and "Military retired pay" not in text(2)
    assert text(1).startswith("Military retired pay is reduced")


def test_a_claim_or_review_asked_about_a_condition_is_not_answered_with_its_table():
    table = [("DC 6260 tinnitus is rated in 38 CFR 4.87:", ON_TOPIC), ("10% — recurrent tinnitus", OFF)]
    rule = [("Your own statement that your ears have rung since service can support a tinnitus claim.", ON_TOPIC)]

    def answer(question: str) -> str:
        return table_or_rule(question, "6260", "Tinnitus, DC 6260", table, "Tinnitus claims", rule)

    assert answer("nothing in my medical records, can i still get tinnitus or is it a lost cause").startswith("Your own")
    assert answer("VA denied my tinnitus, which appeal do i pick").startswith("Your own")
    assert answer("how is tinnitus rated").startswith("DC 6260")


def test_an_application_question_naming_a_condition_is_answered_with_the_way_to_claim():
    table = [("DC 6260 tinnitus is rated in 38 CFR 4.87:", ON_TOPIC), ("10% — recurrent tinnitus", ON_TOPIC)]
    rule = [("A disability claim is filed online, by mail or in person.", NEAR)]
    text = table_or_rule("how do i file for tinnitus", "6260", "Tinnitus, DC 6260", table, "Filing a claim", rule)
    assert text.startswith("A disability claim is filed") and "10% — recurrent tinnitus" not in text


def test_a_worked_examples_dates_do_not_lead_an_answer_to_the_askers_own_dates():
    example = [("In this example the effective date can be March 10, 2025, instead of January 20, 2026.", ON_TOPIC)]
    rule = [("An intent to file received within the first year can preserve the earlier date.", NEAR)]
    chunks = [replace(chunk(1, 1, 0.7), title="Intent to file example: back pay it can protect"),
              replace(chunk(2, 2, 0.69), title="Effective dates after discharge")]

    def lead(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: example, 2: rule}).text

    assert lead("got out may 2023, intent to file march 10 2024, what effective date will i get").startswith(
        "An intent to file")
    # Without the asker's dates a rule nearly as close still answers before one veteran's case ...
    assert lead("how does an intent to file protect my effective date").startswith("An intent to file")
    # ... and the example answers when it is clearly the closer.
    chunks[1] = replace(chunks[1], score=0.5)
    assert lead("how does an intent to file protect my effective date").startswith("In this example")
    assert lead("how does an intent to file protect my post-9/11 effective date").startswith("In this example")


def test_the_condition_a_rating_is_for_does_not_lead_a_question_about_something_else():
    # "My husband gets 10% for tinnitus; how much funding fee do we owe": the tinnitus page names DC 6260.
    table = [("DC 6260 tinnitus is rated 10% under 38 CFR 4.87.", ON_TOPIC)]
    fee = [("The VA funding fee is a one-time charge on most VA-backed loans.", NEAR)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Tinnitus, DC 6260", url="https://www.ecfr.gov/1",
                          content="DC 6260", score=0.6, diagnostic_code="6260"),
              replace(chunk(2, 2, 0.7), title="VA funding fee")]

    def lead(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: table, 2: fee}, codes=("6260",),
                                   condition_names={"tinnitus": "6260"}).text

    assert lead("my husband gets 10% for tinnitus, how much funding fee do we owe").startswith("The VA funding fee")
    assert lead("what rating for tinnitus").startswith("DC 6260")


def test_a_comparison_of_a_named_benefit_with_another_program_reads_both_and_keeps_a_list_whole():
    # "Chapter 31 vs chapter 36": VR&E's page (its tracks announced, then listed) and chapter 36's page, which
    # the graph links to no benefit; the list item matching best does not jump ahead of its announcement.
    tracks = [("VR&E, chapter 31, organizes services into five tracks.", NEAR),
              ("Self-Employment: support for starting a business.", ON_TOPIC)]
    counseling = [("Chapter 36 is free career counseling that needs no service-connected rating.", LEAD)]
    chunks = [replace(chunk(1, 1, 0.7), benefits=frozenset({"vre"})), chunk(2, 2, 0.69)]
    text = extractive_generate(question="whats the difference between chapter 31 and chapter 36",
                               question_vector=QUESTION_VECTOR, chunks=chunks, units={1: tracks, 2: counseling},
                               benefits=frozenset({"vre"})).text
    assert text.startswith("VR&E, chapter 31, organizes") and "Chapter 36 is free career counseling" in text


def test_a_broad_benefit_named_does_not_set_aside_a_source_on_a_narrower_one():
    # "Prostate cancer VA disability percentage": "disability" names compensation, on nearly every source; the
    # cancer table, linked to SMC (it mentions SMC for loss of use), still answers.
    explainer = [("A VA disability rating is a percentage that reflects how severe a condition is.", ON_TOPIC)]
    table = [("DC 7528 prostate cancer is rated in 38 CFR 4.115b:", ON_TOPIC), ("100% — active malignancy", OFF)]
    chunks = [replace(chunk(1, 1, 0.7), benefits=frozenset({"disability_compensation"})),
              replace(chunk(2, 2, 0.69), benefits=frozenset({"smc"})), chunk(3, 3, 0.6), chunk(4, 4, 0.59)]
    units = {1: explainer, 2: table, 3: [("Another rule.", OFF)], 4: [("A third rule.", OFF)]}
    text = extractive_generate(question="prostate cancer va disability percentage", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units=units, chunk_types={2: "rating_table"},
                               benefits=frozenset({"disability_compensation"})).text
    assert "100% — active malignancy" in text


def test_a_sentence_from_a_source_off_the_named_benefit_does_not_join_its_answer():
    overview = [("Voc rehab helps veterans with service-connected disabilities find and keep suitable jobs.", ON_TOPIC)]
    hospital = [("A hospital stay must last longer than 21 days for a temporary total rating.", LEAD)]
    chunks = [replace(chunk(1, 1, 0.7), benefits=frozenset({"vre"})), chunk(2, 2, 0.69)]

    def text(benefits: frozenset[str]) -> str:
        return extractive_generate(question="how long does voc rehab last", question_vector=QUESTION_VECTOR,
                                   chunks=chunks, units={1: overview, 2: hospital}, benefits=benefits,
                                   name_words=frozenset({"voc", "rehab"})).text

    assert "21 days" in text(frozenset())
    assert text(frozenset({"vre"})).startswith("Voc rehab helps") and "21 days" not in text(frozenset({"vre"}))


def test_sources_on_the_named_benefit_are_read_before_those_on_none():
    units = {n: [(f"Sentence {n} about a hospital stay.", OFF)] for n in (1, 2, 3)}
    units[4] = [("Voc rehab lasts up to 48 months of services within a 12-year period.", ON_TOPIC)]
    chunks = [chunk(1, 1, 0.7), chunk(2, 2, 0.69), chunk(3, 3, 0.68),
              replace(chunk(4, 4, 0.6), benefits=frozenset({"vre"}))]

    def text(benefits: frozenset[str]) -> str:
        return extractive_generate(question="how long does voc rehab last", question_vector=QUESTION_VECTOR,
                                   chunks=chunks, units=units, benefits=benefits).text

    assert "48 months" not in text(frozenset())
    assert text(frozenset({"vre"})).startswith("Voc rehab lasts up to 48 months")
    # A benefit nearly every source touches ("compensation") orders nothing.
    chunks[3] = replace(chunks[3], benefits=frozenset({"disability_compensation"}))
    assert "48 months" not in text(frozenset({"disability_compensation"}))


def test_a_source_on_the_named_benefit_leads_over_a_closer_one_on_none():
    convalescence = [("A temporary 100% rating follows surgery needing a month of convalescence.", ON_TOPIC)]
    eligibility = [("Veterans need a serious employment handicap for this program.", NEAR)]
    chunks = [chunk(1, 1, 0.7), replace(chunk(2, 2, 0.66), benefits=frozenset({"vre"}))]

    def text(benefits: frozenset[str]) -> str:
        return extractive_generate(question="I'm rated 10%. can i get voc rehab?", question_vector=QUESTION_VECTOR,
                                   chunks=chunks, units={1: convalescence, 2: eligibility}, benefits=benefits).text

    assert text(frozenset()).startswith("A temporary 100% rating")
    assert text(frozenset({"vre"})).startswith("Veterans need a serious employment handicap")


def test_the_askers_own_rating_is_not_a_level_asked_about():
    eligibility = [("You need a serious employment handicap for voc rehab at the lowest level.", ON_TOPIC)]
    table = [("Mental disorders, lowest levels:", OFF), ("10% — mild or transient symptoms", OFF),
             ("0% — diagnosed, no effect on work", OFF)]
    units, scores, types = {1: eligibility, 2: table}, {1: 0.7, 2: 0.6}, {2: "rating_table"}
    for question in ("I'm rated 10 percent, can I get voc rehab", "im at 10% can i get voc rehab",
                     "can i get voc rehab, 10% rated"):
        text = generate(question, units, scores, types).text
        assert "mild or transient" not in text and text.startswith("You need a serious employment handicap")
    # A level asked about beside the asker's own is still read.
    assert "10% — mild or transient symptoms" in generate("I'm rated 0 percent, what is the rating at 10 percent",
                                                          units, scores, types).text


def test_a_relatives_rating_is_not_a_level_asked_about():
    # "My husband was 100% P&T for 12 years and died of cancer, can I get DIC": his rating is the story.
    rule = [("Survivors can get DIC when the veteran was totally disabled for 10 years before death.", ON_TOPIC)]
    table = [("DC 7528 genitourinary cancer:", OFF), ("100% — active malignancy", OFF)]
    units, scores, types = {1: rule, 2: table}, {1: 0.7, 2: 0.6}, {2: "rating_table"}
    text = generate("my husband was 100% p&t for 12 years and died of cancer, can i get DIC", units, scores,
                    types).text
    assert "active malignancy" not in text and text.startswith("Survivors can get DIC")
    # "Life insurance for my 100 percent disabled husband": a person described by his rating.
    text = generate("can my 100 percent disabled husband get DIC insurance", units, scores, types).text
    assert "active malignancy" not in text and text.startswith("Survivors can get DIC")



def test_the_askers_own_rating_in_a_reduction_question_is_not_a_level_asked_about():
    rule = [("VA can reduce a rating only when the evidence shows actual improvement.", ON_TOPIC)]
    table = [("DC 7528 genitourinary cancer:", OFF), ("100% — active malignancy", OFF)]
    units, scores, types = {1: rule, 2: table}, {1: 0.7, 2: 0.6}, {2: "rating_table"}
    text = generate("can va drop my 100 percent rating", units, scores, types).text
    assert "active malignancy" not in text and text.startswith("VA can reduce a rating")


def test_the_sentence_that_answers_leads_when_it_clearly_outscores_the_sources_opening():
    # "How long do I have to file a supplemental claim": the source opens on what the form is for.
    units = {1: [("A supplemental claim is filed on VA Form 20-0995 with new evidence.", OFF),
                 ("You can file a supplemental claim at any time; within 1 year protects the date.", ON_TOPIC)]}
    text = generate("how long do i have to file a supplemental claim", units, {1: 0.7}).text
    assert text.startswith("You can file a supplemental claim at any time")
    assert "VA Form 20-0995" in text  # moved ahead, nothing dropped
    # A near tie keeps the source's own order, and a sentence adding to the one before it never leads.
    close = {1: [("A supplemental claim is filed on VA Form 20-0995 with new evidence.", ON_TOPIC),
                 ("You can file a supplemental claim at any time; within 1 year protects the date.", NEAR)]}
    # (Asked without a time limit: a sentence stating the limit asked for is no tie.)
    assert generate("when can i file a supplemental claim", close, {1: 0.7}).text.startswith("A supplemental")
    additive = {1: [("A supplemental claim is filed on VA Form 20-0995 with new evidence.", OFF),
                    ("Your letter may also say you can file a supplemental claim within 1 year.", ON_TOPIC)]}
    assert generate("how long do i have to file a supplemental claim", additive, {1: 0.7}).text.startswith("A supplemental")


def test_an_application_question_naming_a_rating_gets_the_way_to_apply_not_a_table():
    # "How do I file for an increase on my knee rating": the knee replacement table is not what was asked.
    table = [("DC 5055 knee replacement rating:", ON_TOPIC), ("100% — for 4 months after the knee prosthesis", OFF),
             ("30% — minimum knee rating", OFF)]
    process = [("To file for an increased rating, use VA Form 21-526EZ with new evidence.", NEAR)]
    units, types = {1: table, 2: process}, {1: "rating_table"}
    text = generate("how do i file for an increase on my knee rating", units, {1: 0.7, 2: 0.6}, types).text
    assert "- 100%" not in text and "21-526EZ" in text
    assert "- 100%" in generate("what is the knee replacement rating", units, {1: 0.7, 2: 0.6}, types).text


def test_another_sources_sentence_leaning_on_a_year_it_does_not_name_is_not_served():
    units = {1: [("An increased rating claim is filed on VA Form 21-526EZ.", ON_TOPIC)],
             2: [("The veteran files the claim on October 1 of the same year.", LEAD)],
             3: [("An increased rating claim may cover the same period of service.", vec(1, 0, 0, 0.5))]}
    text = generate("when is the increased rating claim filed", units, {1: 0.7, 2: 0.69, 3: 0.68}).text
    assert "of the same year" not in text
    assert "the same period of service" in text  # "the same period of service" names its period


def test_a_sentence_opening_with_or_brings_the_one_before_it():
    # "Can I appeal a Board decision": "Or you can appeal to the Court" is the second of two options.
    units = {1: [("If you disagree with a Board decision, you have two main options.", OFF),
                 ("You can file a Supplemental Claim with new evidence.", OFF),
                 ("Or you can appeal a Board decision to the Court within 120 days.", ON_TOPIC)]}
    text = generate("can i appeal a board decision to the court", units, {1: 0.7}).text
    assert "You can file a Supplemental Claim" in text
    assert text.index("You can file a Supplemental Claim") < text.index("Or you can appeal")


def test_a_worked_examples_sentence_is_not_borrowed_into_another_sources_answer():
    chunks = [replace(chunk(1, 1, 0.7), title="Back pay"),
              replace(chunk(2, 2, 0.69), title="Worked example: a missed date")]
    units = {1: [("Back pay is owed from the effective date of the award.", ON_TOPIC)],
             2: [("Had the veteran waited past March 10, the intent to file would have expired.", LEAD)]}
    text = extractive_generate(question="can i get back pay from when i filed", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units=units).text
    assert "Back pay is owed" in text and "Had the veteran" not in text
    # Unless the example's source is the one that answers.
    led = extractive_generate(question="can i get back pay from when i filed", question_vector=QUESTION_VECTOR,
                              chunks=chunks[1:], units=units).text
    assert "Had the veteran" in led


def test_a_rating_a_benefit_requires_is_not_a_level_asked_about():
    eligibility = [("You need a rating of at least 10% and an employment handicap for voc rehab.", NEAR)]
    table = [("Temporary total rating:", ON_TOPIC), ("100% — hospital stay over 21 days", OFF)]
    units, scores, types = {1: table, 2: eligibility}, {1: 0.7, 2: 0.69}, {1: "rating_table"}
    text = generate("do i have to be 100% to get voc rehab", units, scores, types).text
    assert "hospital stay" not in text and "at least 10%" in text


@pytest.mark.parametrize("question", ["do i have to pay copays at the va if i'm 50 percent",
                                      "as a 50% disabled vet do i pay copays at the va"])
def test_the_askers_own_level_is_not_a_level_asked_about(question):
    # "If I'm 50 percent, do I pay copays": the pay table's 50% row is not the answer.
    copays = [("Veterans in priority group 1, including those rated 50% or more, pay no copays.", NEAR)]
    table = [("Monthly compensation by rating:", ON_TOPIC), ("50% — $1,132.90", OFF)]
    units, scores, types = {1: table, 2: copays}, {1: 0.7, 2: 0.69}, {1: "rating_table"}
    text = generate(question, units, scores, types).text
    assert "$1,132.90" not in text and "pay no copays" in text


def test_permanent_and_total_is_a_standing_not_a_level_asked_about():
    # "A double below the knee amputee and 100% P&T, do I qualify for the SAH grant": knee replacement's 100% row
    # was added as the level asked.
    sah = [("An SAH grant needs a service-connected loss, or loss of use, of two or more limbs.", ON_TOPIC)]
    knee = [("DC 5055 knee replacement:", NEAR), ("100% — for 4 months after the prosthesis is implanted", OFF)]
    units, scores, types = {1: sah, 2: knee}, {1: 0.62, 2: 0.5}, {2: "rating_table"}
    text = generate("im a double below the knee amputee and 100% P&T. do i qualify for the SAH grant", units, scores,
                    types).text
    assert "two or more limbs" in text and "prosthesis" not in text, text


def test_a_sentence_that_only_restates_the_question_brings_the_one_after_it():
    # "What are the percentage requirements for IU": the source's opening says where they are, the next says them.
    units = {1: [("The percentage requirements for Individual Unemployability (TDIU) are in 38 CFR 4.16(a).", ON_TOPIC),
                 ("A veteran must have one disability rated 60% or more, or a combined 70% with one at 40%.", OFF),
                 ("Example: a heart condition rated 60% meets the first test.", OFF)]}
    text = generate("what are the percentage requirements for individual unemployability", units, {1: 0.7}).text
    assert "rated 60% or more" in text and "Example" not in text


def test_the_forms_own_source_answers_what_the_form_is():
    # "What is form 21-0966": the pension application names it in passing and its sentences on forms score well.
    pension = [("Apply for the Veterans Pension with VA Form 21P-527EZ.", ON_TOPIC),
               ("Submitting an intent to file (VA Form 21-0966) first can protect an earlier effective date.", ON_TOPIC)]
    own = [("VA Form 21-0966 tells VA that you plan to file a claim.", OFF)]
    chunks = [replace(chunk(1, 1, 0.7, "VA Form 21P-527EZ ... VA Form 21-0966"), title="How to apply for pension"),
              replace(chunk(2, 2, 0.5, "VA Form 21-0966"), title="Intent to File a Claim (VA Form 21-0966)")]
    text = extractive_generate(question="what is form 21-0966", question_vector=QUESTION_VECTOR, chunks=chunks,
                               units={1: pension, 2: own}).text
    assert text.startswith("VA Form 21-0966 tells VA") and "21P-527EZ" not in text


def test_a_source_titled_for_another_benefit_does_not_answer_for_the_one_asked():
    # The home loan page for surviving spouses mentions DIC; asked about DIC, the DIC page answers.
    loan = replace(chunk(1, 1, 0.7), title="VA home loan eligibility for surviving spouses",
                   benefits=frozenset({"home_loan", "dic"}))
    dic = replace(chunk(2, 2, 0.65), title="DIC: what must be true about the veteran's death",
                  benefits=frozenset({"dic"}))
    units = {1: [("A surviving spouse who receives DIC may also qualify for a home loan, even when the death "
                  "was not service connected.", ON_TOPIC)],
             2: [("DIC is paid when the veteran was rated totally disabled for 10 years before death.", NEAR)]}
    text = extractive_generate(question="can my spouse get DIC if the death is not service connected",
                               question_vector=QUESTION_VECTOR, chunks=[loan, dic], units=units,
                               benefits=frozenset({"dic"})).text
    assert text.startswith("DIC is paid") and "home loan" not in text


def test_asked_about_a_death_not_service_connected_the_service_connected_case_does_not_lead():
    units = {1: [("VA helps pay burial costs.", NEAR),
                 ("For a service-connected death, VA pays up to $2,000 toward burial costs.", ON_TOPIC),
                 ("For a non-service-connected death, VA pays a burial and a plot allowance.", NEAR)]}
    text = generate("how much does va pay for burial if the death was not service connected", units, {1: 0.7}).text
    assert text.index("non-service-connected death") < text.index("For a service-connected death") \
        if "For a service-connected death" in text else "non-service-connected death" in text


def test_asked_about_a_service_connected_death_the_other_case_does_not_lead():
    units = {1: [("VA helps pay burial costs.", NEAR),
                 ("For a non-service-connected death, VA pays a burial and a plot allowance.", ON_TOPIC),
                 ("For a service-connected death, VA pays up to $2,000 toward burial costs.", NEAR)]}
    text = generate("what burial benefits does va give for a service connected death", units, {1: 0.7}).text
    assert text.startswith("For a service-connected death")
    # Asked about service connection in general, neither case is weighed down.
    assert generate("what is service connected", units, {1: 0.7}).text.startswith("For a non-service-connected")


def test_how_many_is_answered_by_a_count_of_the_things_asked():
    # "Check your remaining months on your Post-9/11 statement" shares more words (and a "9/11"), but no count.
    units = {1: [("The GI Bill provides up to 36 months of benefits.", NEAR)],
             2: [("Check your remaining months on your Post-9/11 GI Bill statement.", ON_TOPIC)]}
    text = generate("how many months of post 9/11 gi bill do i get", units, {1: 0.69, 2: 0.7}).text
    assert text.startswith("The GI Bill provides up to 36 months")
    # A one-time payment is not a count of times.
    units = {1: [("You can use the benefit more than once.", NEAR)],
             2: [("A one-time restoration can be used only once.", ON_TOPIC)]}
    assert generate("how many times can i use it", units, {1: 0.69, 2: 0.7}).text.startswith("A one-time")


def test_a_time_limit_question_is_answered_by_the_limit_not_by_another_figure():
    # "How long do I have to convert SGLI": "within 1 year and 120 days", not the $500,000 that shares more words.
    units = {1: [("VGLI can be any amount up to your SGLI coverage, to a maximum of $500,000.", ON_TOPIC),
                 ("You must apply within 1 year and 120 days from the day your service ends.", NEAR)]}
    text = generate("how long do i have to convert sgli to vgli", units, {1: 0.7}).text
    assert text.startswith("You must apply within 1 year and 120 days")
    # A length of benefits is not a time limit: the rule on when eligibility ends leads.
    units = {1: [("VR&E generally provides up to 48 months of entitlement.", ON_TOPIC),
                 ("Your basic period of eligibility ends 12 years from your separation.", NEAR)]}
    assert generate("is there a time limit on vr&e", units, {1: 0.7}).text.startswith("Your basic period")
    # "You have up to one year from ..." sets a limit as much as "within one year" does.
    units = {1: [("A Board Appeal must be filed within one year of the decision.", ON_TOPIC)],
             2: [("Sending evidence early helps avoid delays.", ON_TOPIC),
                 ("You have up to one year from the date VA receives the claim to send evidence.", NEAR)]}
    text = generate("how long do i have to send evidence after i file my claim", units, {1: 0.7, 2: 0.69}).text
    assert text.startswith("You have up to one year from the date VA receives the claim"), text
    # A deadline asked is answered by the limit, not by the coverage that shares more words, nor by a
    # condition's shorter window.
    units = {1: [("VGLI can be for any amount up to the SGLI coverage you had, to a maximum of $500,000.", QUESTION_VECTOR),
                 ("You must apply within 1 year and 120 days from the day your service ends.", vec(1, 1, 0, 0)),
                 ("If you apply within 240 days after separation, you need not prove good health.", NEAR)]}
    text = generate("vgli deadline", units, {1: 0.7}).text
    assert text.startswith("You must apply within 1 year and 120 days"), text
    # A limit in the main clause of a sentence opening with a condition still counts, in hours too.
    units = {1: [("If you receive emergency care at a non-VA hospital, notify VA within 72 hours.", ON_TOPIC)],
             2: [("Wait time: an appointment within 20 days for primary care.", ON_TOPIC)]}
    text = generate("i went to a civilian er, how long do i have to tell the va", units, {1: 0.7, 2: 0.6}).text
    assert text.startswith("If you receive emergency care at a non-VA hospital, notify VA within 72 hours"), text
    # "You generally have 10 years from your last discharge to use it" sets one too.
    units = {1: [("The Montgomery GI Bill pays up to 36 months of benefits to you directly.", ON_TOPIC),
                 ("You generally have 10 years from your last discharge to use the Montgomery GI Bill.", NEAR)]}
    text = generate("how long do i have to use the montgomery gi bill", units, {1: 0.7}).text
    assert text.startswith("You generally have 10 years"), text

    # A limit in a source far below the best in meaning is another process's: "how long do I have to respond" to a
    # proposed reduction is not answered by the decision reviews' one year.
    units = {1: [("When VA proposes to reduce your rating, you can ask for a hearing.", ON_TOPIC)],
             2: [("A Higher-Level Review must be requested within one year of the decision.", ON_TOPIC)]}
    text = generate("va proposes to reduce my rating, how long do i have to respond", units, {1: 0.77, 2: 0.59}).text
    assert text.startswith("When VA proposes to reduce your rating"), text


@pytest.mark.parametrize(("question", "units", "lead"), [
    # "Is there a time limit": a source saying there is none answers it, before a limit it sets for something else.
    ("is there a time limit to file a va disability claim? i got out in 1992",
     {1: [("If VA receives your claim within one year after separation, it pays from the day after.", ON_TOPIC),
          ("There is no deadline to file a disability claim.", NEAR)]}, "There is no deadline"),
    # A deadline the asker missed is not asked for: what is left after it answers.
    ("i missed the one year deadline to appeal, am i out of luck",
     {1: [("If you missed it, you can still appeal with a Supplemental Claim at any time.", ON_TOPIC)],
      2: [("You have 60 days from the SOC to opt a legacy appeal in.", NEAR)]}, "If you missed it"),
])
def test_what_answers_a_question_on_a_time_limit_that_asks_for_none(question, units, lead):
    text = generate(question, units, {n: 0.7 - n / 100 for n in units}).text
    assert text.startswith(lead), text

def test_filing_within_the_year_is_not_answered_by_the_branch_for_filing_after_it():
    units = {1: [("If you file more than a year after the decision, the grant is effective from the new claim date.",
                  QUESTION_VECTOR),
                 ("Filing within one year of the decision keeps the earlier effective date.", ON_TOPIC)]}
    text = generate("is my effective date protected if i file a supplemental claim within a year", units, {1: 0.8}).text
    assert text.startswith("Filing within one year"), text

def test_a_sentence_adding_to_another_does_not_lead_even_when_its_also_comes_late():
    units = {1: [("Deadlines for reviewing a decision: a Higher-Level Review is due within one year.", NEAR),
                 ("A Board Appeal (VA Form 10182) must also be filed within one year of the decision letter.", LEAD)]}
    text = generate("how long do I have to appeal a board decision letter", units, {1: 0.7}).text
    assert text.startswith("Deadlines for reviewing")


def test_an_answer_led_by_one_programs_page_borrows_nothing_from_anothers():
    vre = replace(chunk(1, 1, 0.7), title="VR&E eligibility for veterans", benefits=frozenset({"vre"}))
    pension = replace(chunk(2, 2, 0.69), title="Can I get VA pension and compensation at the same time?",
                      benefits=frozenset({"pension", "disability_compensation"}))
    units = {1: [("With an other than honorable discharge you may still qualify through a character of discharge "
                  "review.", ON_TOPIC)],
             2: [("Whatever the discharge, a veteran eligible for both benefits gets the higher amount.", LEAD)]}
    text = extractive_generate(question="can i get benefits with an other than honorable discharge",
                               question_vector=QUESTION_VECTOR, chunks=[vre, pension], units=units).text
    assert "character of discharge" in text and "higher amount" not in text


def test_a_title_with_the_questions_words_in_order_names_what_was_asked():
    # The two grants' names stem to the same words; the title written as the question writes it answers.
    sha = replace(chunk(1, 1, 0.7), title="Special Housing Adaptation (SHA) grant")
    sah = replace(chunk(2, 2, 0.68), title="Specially Adapted Housing (SAH) grant")
    units = {1: [("A Special Housing Adaptation grant helps adapt a home.", ON_TOPIC)],
             2: [("A Specially Adapted Housing grant helps buy or build a home.", ON_TOPIC)]}
    text = extractive_generate(question="what is the specially adapted housing grant", question_vector=QUESTION_VECTOR,
                               chunks=[sha, sah], units=units).text
    assert text.startswith("A Specially Adapted Housing grant")


def test_a_question_naming_two_benefits_is_answered_by_the_page_on_both():
    gi_bill = replace(chunk(1, 1, 0.7), title="Using the GI Bill for on-the-job training", benefits=frozenset({"gi_bill"}))
    both = replace(chunk(2, 2, 0.66), title="Can I use VR&E after my GI Bill runs out?",
                   benefits=frozenset({"vre", "gi_bill"}))
    units = {1: [("GI Bill benefits can be used for on-the-job training.", ON_TOPIC)],
             2: [("Using VR&E does not use up GI Bill entitlement.", NEAR)]}
    text = extractive_generate(question="can i use voc rehab and the gi bill", question_vector=QUESTION_VECTOR,
                               chunks=[gi_bill, both], units=units, benefits=frozenset({"vre", "gi_bill"})).text
    assert text.startswith("Using VR&E does not use up GI Bill entitlement")


def test_a_rating_status_beside_a_program_named_does_not_make_a_page_on_both_lead():
    # "My dad is 100% P&T, I'm 24, can I still use his DEA": the DEA page for children answers, not every page
    # that names both P&T and DEA (the spouses' time limits).
    spouses = replace(chunk(1, 1, 0.62), title="DEA for spouses: time limits", benefits=frozenset({"dea", "p_and_t"}))
    pt = replace(chunk(2, 2, 0.61), title="What a P&T rating unlocks", benefits=frozenset({"dea", "p_and_t"}))
    children = replace(chunk(3, 3, 0.6), title="DEA for children: ages", benefits=frozenset({"dea"}))
    units = {1: [("A spouse has 10 years to use DEA.", ON_TOPIC)],
             2: [("A P&T rating can make a veteran's children eligible for DEA.", NEAR)],
             3: [("Children can generally use DEA for college between ages 18 and 26.", ON_TOPIC)]}
    question = "my dad is 100% p&t, im 24, can i still use his dea for college"
    text = extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=[spouses, pt, children],
                               units=units, benefits=frozenset({"dea", "p_and_t"})).text
    assert text.startswith("Children can generally use DEA"), text


@pytest.mark.parametrize(("question", "sentences", "expected"), [
    ("what are the tracks of voc rehab",
     [("VR&E organizes services into five tracks.", ON_TOPIC),
      ("Reemployment: help returning to the job you held before service.", OFF),
      ("Self-Employment: support for starting a business.", OFF),
      ("Your counselor helps you choose a track.", ON_TOPIC)],
     ["\n- Reemployment: help returning", "\n- Self-Employment: support"]),
    # "Do I need a current diagnosis": the first of the three elements scored lowest and was left out.
    ("do i need a current diagnosis to file",
     [("VA needs evidence of three things.", QUESTION_VECTOR),
      ("First, a current disability: shown by medical evidence.", OFF),
      ("Second, an in-service event: an injury during service.", ON_TOPIC),
      ("Third, a nexus: a link between the two.", ON_TOPIC)],
     ["things [1].\n- First, a current disability", "\n- Second", "\n- Third"]),
])
def test_a_sentence_announcing_a_list_brings_its_items_as_a_list(question, sentences, expected):
    text = generate(question, {1: sentences}, {1: 0.7}).text
    assert all(fragment in text for fragment in expected), text


def test_a_rating_question_on_a_condition_no_source_covers_gets_no_other_conditions_table():
    afib = replace(chunk(1, 1, 0.7), title="Atrial fibrillation rating, DC 7010", diagnostic_code="7010")
    units = {1: [("DC 7010 supraventricular arrhythmias in 38 CFR 4.104:", ON_TOPIC), ("10% — one to four episodes", OFF)]}
    asked = dict(question="what is the rating for hepatitis c", question_vector=QUESTION_VECTOR, chunks=[afib],
                 units=units, chunk_types={1: "rating_table"})
    assert extractive_generate(**asked, codes=("7354",)).text == ""
    # The condition's own table answers; so does a source that names the code among others.
    covered = replace(afib, diagnostic_code="", content="DC 7354 hepatitis C and DC 7010 ...")
    assert "10%" in extractive_generate(**{**asked, "chunks": [covered]}, codes=("7354",)).text


def test_a_tables_caption_comes_with_its_rows():
    # "With the other eye at 20/40:": the rows assume what the sentence before them says.
    table = [("Vision loss is rated under DCs 6061 to 6066.", ON_TOPIC),
             ("Other eye at 20/40 unless blind, so for one eye the levels are:", NEAR),
             ("10% — 20/50 in one eye", OFF), ("20% — 20/200 in one eye", OFF)]
    text = generate("what rating for vision loss in one eye", {1: table}, {1: 0.7}, {1: "rating_table"}).text
    assert text.startswith("Vision loss is rated under DCs 6061 to 6066 [1]. Other eye at 20/40 unless blind")
    assert text.index("Other eye at 20/40") < text.index("- 10%")
    labelled = [table[0], ("Condensed levels:", NEAR), *table[2:]]
    text = generate("what rating for vision loss in one eye", {1: labelled}, {1: 0.7}, {1: "rating_table"}).text
    assert "Condensed levels" not in text and "- 10%" in text


def test_another_codes_source_lends_no_sentence_to_a_rating_answer():
    # An ankle answer took "if bending measures better than 45 degrees" from the knee's table.
    ankle = [replace(chunk(1, 1, 0.7), diagnostic_code="5271"), replace(chunk(2, 2, 0.69), diagnostic_code="5260"),
             chunk(3, 3, 0.68)]
    units = {1: [("DC 5271 rates limited ankle motion when it bends.", ON_TOPIC)],
             2: [("If bending is painful but measures better than 45 degrees, 10 percent applies.", LEAD)],
             3: [("Painful motion that bends less can support the minimum rating.", vec(1, 0, 0, 0.5))]}
    text = extractive_generate(question="my ankle only bends 5 degrees", question_vector=QUESTION_VECTOR,
                               chunks=ankle, units=units).text
    assert "45 degrees" not in text
    assert "Painful motion" in text  # a source on no one code still adds its sentence
    # Another code's sentence without figures ("rated separately") may still join.
    words = {**units, 2: [("The knee is rated separately when its bending is limited too.", LEAD)]}
    assert "rated separately" in extractive_generate(question="my ankle only bends 5 degrees",
                                                     question_vector=QUESTION_VECTOR, chunks=ankle, units=words).text
    compare = extractive_generate(question="compare ankle and knee bending ratings", question_vector=QUESTION_VECTOR,
                                  chunks=ankle, units=units).text
    assert "45 degrees" in compare


def test_nothing_is_said_when_every_source_read_is_on_another_benefit_than_the_one_named():
    # "How much does chapter 35 pay per month" met only DIC's amount table: its amounts are not DEA's.
    dic = [replace(chunk(1, 1, 0.7), benefits=frozenset({"dic"}))]
    units = {1: [("DIC monthly amounts:", ON_TOPIC), ("Basic monthly rate — $1,699.36", OFF)]}
    def answer(benefits: frozenset[str]) -> str:
        return extractive_generate(question="how much does chapter 35 pay per month", question_vector=QUESTION_VECTOR,
                                   chunks=dic, units=units, benefits=benefits).text
    assert answer(frozenset({"dea"})) == ""
    assert "$1,699.36" in answer(frozenset({"dic"}))


def test_money_down_is_not_a_rating_level():
    from verification.generators.extractive import levels_asked
    assert levels_asked("funding fee if i put 10 percent down on my first loan") == frozenset()
    assert levels_asked("10% down payment") == frozenset()
    assert levels_asked("what is the ptsd rating at 10 percent") == frozenset({10})


def test_a_level_the_asker_fears_is_all_they_get_is_not_the_level_asked():
    from verification.generators.extractive import levels_asked
    assert levels_asked("on zoloft every day, does that count for anything or is it just 0%?") == frozenset()
    assert levels_asked("im only 10% now, what does 30 percent need") == frozenset({30})


def test_the_highest_level_of_a_major_minor_table_is_the_askers_arms():
    table = [("DC 5201 rates limitation of motion of the arm at the shoulder:", LEAD),
             ("20% major / 20% minor — motion limited at shoulder level", OFF),
             ("40% major / 30% minor — motion limited to 25 degrees from the side", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Shoulder limitation of motion rating, DC 5201",
                          url="https://www.ecfr.gov/1", content="DC 5201", score=0.6, diagnostic_code="5201")]

    def answer(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: table}, chunk_types={1: "rating_table"}, codes=("5201",)).text

    assert answer("highest rating for a shoulder that wont move, its my left arm and im a righty").startswith(
        "The highest rating under DC 5201 for the non-dominant (minor) arm is 30% (40% for the dominant arm) [1].")
    assert answer("max rating for my dominant shoulder").startswith(
        "The highest rating under DC 5201 for the dominant (major) arm is 40% [1].")
    assert answer("whats the max rating for shoulder motion").startswith(
        "The highest rating under DC 5201 is 40% for the dominant (major) arm and 30% for the other (minor) arm [1].")


@pytest.mark.parametrize(("question", "levels"), [
    ("my back only bent forward to 40 degrees at my C&P. is that 20 or 40 percent?", {20, 40}),
    ("is it 30 or 50 percent for ptsd", {30, 50}),
    ("between 30 and 50 percent which one fits panic attacks", {30, 50}),
])
def test_both_levels_offered_are_asked_about(question, levels):
    # "Is that 20 or 40 percent" showed only the 40% row, and the finding rates 20%.
    from verification.generators.extractive import levels_asked
    assert levels_asked(question) == frozenset(levels)


@pytest.mark.parametrize("question", [
    "my PFT showed DLCO 60 percent predicted. what is the copd rating for that",
    "my FEV1 was 60 percent predicted, asthma rating",
    "FEV-1/FVC is 30 percent, what COPD rating",
    "chronic fatigue syndrome, I can only do about 60 percent of what I could before I got sick. what rating",
    "ejection fraction 45% what rating",
    "eczema on 30% of my body, what rating",
])
def test_a_measurement_in_percent_is_not_a_rating_level(question):
    # Shown only the row whose level equals the finding, "DLCO 60 percent" read as 60% (it rates 30%).
    from verification.generators.extractive import levels_asked
    assert levels_asked(question) == frozenset()


def test_an_eligibility_question_is_answered_by_the_source_of_eligibility_rules():
    # "Who qualifies for the caregiver program": the procedure page's "caregivers who do not qualify can still
    # use ..." shares the question's words; the eligibility page's rules answer.
    procedure = [("Caregivers of veterans who do not qualify can still use the general caregiver program.", ON_TOPIC)]
    rules = [("The caregiver program needs a caregiver of at least 18 who is family or lives with the veteran.", ON_TOPIC)]
    units, scores = {1: procedure, 2: rules}, {1: 0.72, 2: 0.7}
    types = {1: "procedure", 2: "eligibility"}
    answer = generate("who qualifies for the caregiver program", units, scores, types).text
    assert answer.startswith("The caregiver program needs")
    # Not asked who qualifies: the closest sentence leads.
    assert generate("what does the caregiver program offer", units, scores, types).text.startswith("Caregivers of")
    # "Do I need a rating to get VA health care" asks what the benefit requires: the rules answer, not a
    # sentence on what a rating level needs.
    rating = [("A veteran does not need every listed symptom to reach a rating level.", ON_TOPIC)]
    rules = [("Veterans who served and were not dishonorably discharged can enroll in health care.", ON_TOPIC)]
    answer = generate("do i need a rating to get va health care", {1: rating, 2: rules}, scores,
                      {1: "explainer", 2: "eligibility"}).text
    assert answer.startswith("Veterans who served")
    # "Can I get DIC if my husband died of a heart attack": whether its conditions are met.
    addon = [("If your husband died after years rated totally disabled, DIC gets an added amount.", ON_TOPIC)]
    rules = [("For DIC the veteran's death was service connected, or a total rating was held 10 years.", ON_TOPIC)]
    answer = generate("can i get dic if my husband died of a heart attack", {1: addon, 2: rules}, scores,
                      {1: "definition", 2: "eligibility"}).text
    assert answer.startswith("For DIC the veteran's death")


def table_or_rule(question: str, code: str, table_title: str, table: list, rule_title: str, rule: list) -> str:
    """A condition's table (ranked first, its code implied by the question's words) and a rule's page."""
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title=table_title, url="https://www.ecfr.gov/1",
                          content=f"DC {code}", score=0.52, diagnostic_code=code),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title=rule_title, url="https://www.va.gov/2",
                          content="", score=0.51)]
    return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                               units={1: table, 2: rule}, chunk_types={1: "rating_table"}, codes=(code,)).text


def test_a_condition_secondary_to_another_is_answered_with_secondary_service_connection_not_its_table():
    table = [("DC 6847 sleep apnea is rated in 38 CFR 4.97:", LEAD), ("50% — requires a CPAP machine", OFF)]
    rule = [("Secondary service connection covers a condition caused by one already service connected.", NEAR)]

    def answer(question: str) -> str:
        return table_or_rule(question, "6847", "Sleep apnea rating, DC 6847", table, "Secondary service connection",
                             rule)

    assert answer("can i get sleep apnea service connected secondary to ptsd").startswith("Secondary service")
    # Asked for the rating, the table answers whatever the condition is secondary to.
    assert answer("what rating for sleep apnea secondary to ptsd").startswith("DC 6847")


def test_a_temporary_100_percent_is_the_temporary_total_rating_not_a_tables_100_percent_row():
    table = [("DC 7528 cancers are rated in 38 CFR 4.115b:", OFF), ("100% — active malignancy, also after surgery", OFF)]
    rule = [("A temporary total rating follows surgery that needs at least one month of convalescence.", ON_TOPIC)]
    chunks = [chunk(1, 1, 0.6), chunk(2, 2, 0.58)]
    answer = extractive_generate(question="can i get a temporary 100 percent after surgery",
                                 question_vector=QUESTION_VECTOR, chunks=chunks, units={1: rule, 2: table},
                                 chunk_types={2: "rating_table"}).text
    assert answer.startswith("A temporary total rating") and "malignancy" not in answer


def test_when_a_condition_can_be_claimed_is_not_answered_with_its_table():
    table = [("DC 6260 tinnitus is rated in 38 CFR 4.87:", LEAD), ("10% — recurrent tinnitus", OFF)]
    rule = [("There is no deadline to file a disability claim.", NEAR)]
    answer = table_or_rule("can i file a claim for tinnitus 20 years after i got out", "6260",
                           "Tinnitus rating, DC 6260", table, "Is there a deadline to file a claim?", rule)
    assert answer.startswith("There is no deadline")


def test_a_review_asked_about_a_condition_is_not_answered_by_the_conditions_other_pages_either():
    # "My claim for tinnitus got denied, which appeal should I do": tinnitus's page on how it differs from
    # hearing loss is no more the answer than its table.
    faq = [("Tinnitus and hearing loss are separate conditions with separate codes.", ON_TOPIC)]
    lanes = [("With new and relevant evidence, file a Supplemental Claim.", NEAR)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Tinnitus vs hearing loss",
                          url="https://www.va.gov/1", content="Tinnitus is DC 6260.", score=0.6),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Which decision review should I choose?",
                          url="https://www.va.gov/2", content="", score=0.50)]
    answer = extractive_generate(question="my tinnitus claim got denied, which appeal should i do",
                                 question_vector=QUESTION_VECTOR, chunks=chunks, units={1: faq, 2: lanes},
                                 codes=("6260",)).text
    assert answer.startswith("With new and relevant evidence"), answer


def test_what_evidence_a_claim_for_a_condition_needs_is_not_answered_with_its_table():
    table = [("DC 6847 sleep apnea is rated in 38 CFR 4.97:", LEAD), ("50% — requires a CPAP machine", OFF)]
    rule = [("A claim needs your DD214, service records and medical evidence of the condition.", NEAR)]
    answer = table_or_rule("what evidence should i send in with my claim for sleep apnea", "6847",
                           "Sleep apnea rating, DC 6847", table, "Evidence VA needs for a claim", rule)
    assert answer.startswith("A claim needs your DD214"), answer


def test_a_comparison_opens_with_what_each_side_is_in_the_questions_order():
    rules = [("You can ask for a Higher-Level Review of a Supplemental Claim decision within one year.", ON_TOPIC),
             ("Higher-Level Review is also not available for contested claims.", NEAR)]
    supplemental = [("A Supplemental Claim lets you add new and relevant evidence.", NEAR)]
    lanes = [("A Higher-Level Review asks a senior reviewer to look again at the same evidence.", LEAD)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Who can request a Higher-Level Review",
                          url="https://www.va.gov/1", content="", score=0.7),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Supplemental Claim", url="https://www.va.gov/2",
                          content="", score=0.6),
              SourceChunk(number=3, chunk_id=3, entry_id="e3", title="Decision review lanes", url="https://www.va.gov/3",
                          content="", score=0.5)]
    answer = extractive_generate(question="what's the difference between a supplemental claim and a higher level review",
                                 question_vector=QUESTION_VECTOR, chunks=chunks,
                                 units={1: rules, 2: supplemental, 3: lanes}).text
    assert answer.startswith("A Supplemental Claim lets you")
    second = answer.split("[2]. ", 1)[1]
    assert second.startswith("A Higher-Level Review asks"), answer

def test_a_condition_named_as_the_cause_of_another_is_not_answered_with_its_table():
    table = [("DC 7913 diabetes is rated in 38 CFR 4.119:", NEAR), ("20% — insulin and restricted diet", OFF)]
    rule = [("Peripheral neuropathy is rated under the code of each affected nerve.", NEAR)]
    names = {"diabetes": "7913", "peripheral neuropathy": "8520", "sleep apnea": "6847"}

    def answer(question: str) -> str:
        chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Diabetes rating, DC 7913",
                              url="https://www.ecfr.gov/1", content="DC 7913", score=0.52, diagnostic_code="7913"),
                  SourceChunk(number=2, chunk_id=2, entry_id="e2", title="How peripheral neuropathy is rated",
                              url="https://www.va.gov/2", content="", score=0.51)]
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: table, 2: rule}, chunk_types={1: "rating_table"}, codes=("7913",),
                                   condition_names=names).text

    assert answer("how is peripheral neuropathy in my feet from diabetes rated").startswith("Peripheral neuropathy")
    # Diabetes asked about itself: after "from", but nothing before it names another condition.
    assert answer("how much would i get from my diabetes").startswith("DC 7913")
    assert answer("what rating for diabetes from agent orange").startswith("DC 7913")


def test_a_condition_a_death_came_from_is_not_asked_about_so_the_burial_pages_answer():
    table = [("DC 6819 malignant neoplasms of the respiratory system are rated in 38 CFR 4.97:", NEAR),
             ("100% — during treatment", OFF)]
    burial = [("For a service-connected death, VA pays up to $2,000 toward burial costs.", ON_TOPIC)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="VA burial allowance", url="https://www.va.gov/1",
                          content="", score=0.7),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Lung cancer rating, DC 6819",
                          url="https://www.ecfr.gov/2", content="DC 6819", score=0.5, diagnostic_code="6819")]

    def answer(question: str) -> str:
        return answer_from(question, chunks, {1: burial, 2: table}, chunk_types={2: "rating_table"}, codes=("6819",),
                           condition_names={"lung cancer": "6819"})

    # It said nothing: the burial pages hold no levels for the code the cause of death implied.
    assert answer("my husbands death was service connected (lung cancer from burn pits, he was rated for it). the funeral "
                  "cost us almost 11 thousand. how much will VA pay toward it and is there a deadline to apply"
                  ).startswith("For a service-connected death, VA pays up to $2,000")
    assert answer("what is the rating for lung cancer").startswith("DC 6819")
    # Only a family member's death: a friend's death before the asker's own condition is the asker's story.
    assert answer("after my buddy's death I got lung cancer, what is the rating for lung cancer").startswith("DC 6819")


def test_a_bare_tens_figure_beside_a_written_level_is_a_level_asked():
    from verification.generators.extractive import levels_asked
    assert levels_asked("ankle rated 10 percent what do i need for 20") == frozenset({10, 20})
    assert levels_asked("knee rated 10% and i can bend to 60 degrees") == frozenset({10})
    assert levels_asked("what do i need for 20") == frozenset()  # no level written: a bare figure is not one
    # The asker's own level taken out of the question, the bare figure is still asked about.
    assert levels_asked(" for depression, what gets me bumped to 70",
                        asked_as="im at 50% for depression, what gets me bumped to 70") == frozenset({70})


def test_the_level_asked_beside_the_askers_own_gets_its_row():
    table = [("The mental disorders formula in 38 CFR 4.130:", LEAD), ("10% — mild or transient symptoms", OFF),
             ("50% — reduced reliability and productivity", OFF), ("70% — deficiencies in most areas", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Mental disorders formula",
                          url="https://www.ecfr.gov/1", content="", score=0.6)]
    answer = extractive_generate(question="im at 50% for depression, what do i need to get bumped to 70",
                                 question_vector=QUESTION_VECTOR, chunks=chunks, units={1: table},
                                 chunk_types={1: "rating_table"}).text
    assert "70% — deficiencies in most areas" in answer and "10% — mild" not in answer


def test_a_question_for_every_level_is_led_by_the_source_holding_them_all():
    # The mental disorders formula is split across sources, one part of its levels each; a condition's page
    # holding all six answers "rating chart all levels".
    part = [("The mental disorders formula, its middle levels:", LEAD), ("50% — reduced reliability", OFF),
            ("70% — deficiencies in most areas", OFF)]
    whole = [("Anxiety is rated under the mental disorders formula.", LEAD)] + [
        (f"{level}% — level {level}", OFF) for level in (0, 10, 30, 50, 70, 100)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Mental disorders formula, middle levels",
                          url="https://www.ecfr.gov/1", content="", score=0.62),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Anxiety, DC 9400",
                          url="https://www.ecfr.gov/2", content="", score=0.6)]
    types = {1: "rating_table", 2: "rating_table"}

    def answer(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: part, 2: whole}, chunk_types=types).text

    assert answer("mental disorders rating chart all levels please").startswith("Anxiety is rated")
    # Not asked for every level: the source ranked first leads.
    assert answer("what is the mental disorders rating").startswith("The mental disorders formula")


def test_every_level_of_a_named_condition_comes_from_its_own_whole_table_over_a_split_tables_part():
    # "List all the levels 0 to 100 for anxiety" was answered with the formula's 0 and 10 rows alone: the split
    # formula's lowest part scored higher than anxiety's own page holding every level.
    part = [("General Rating Formula for Mental Disorders (DC 9400 and other codes 9201 to 9440), lowest levels:", ON_TOPIC),
            ("10% — mild or transient symptoms", ON_TOPIC), ("0% — diagnosed, no effect on work", ON_TOPIC)]
    whole = [("Generalized anxiety disorder is DC 9400, rated under the mental disorders formula.", NEAR)] + [
        (f"{level}% — level {level}", OFF) for level in (0, 10, 30, 50, 70, 100)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Mental disorders 10 and 0 percent levels",
                          url="https://www.ecfr.gov/1", content="", score=0.7),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Generalized anxiety disorder rating, DC 9400",
                          url="https://www.ecfr.gov/2", content="", score=0.55)]
    answer = extractive_generate(question="can u list all the levels of the va mental health rating 0 to 100, for anxiety",
                                 question_vector=QUESTION_VECTOR, chunks=chunks, units={1: part, 2: whole},
                                 chunk_types={1: "rating_table", 2: "rating_table"}, codes=("9400",)).text
    assert answer.startswith("Generalized anxiety disorder is DC 9400")
    assert all(f"{level}% — level {level}" in answer for level in (0, 10, 30, 50, 70, 100))
    assert "lowest levels" not in answer


def test_an_amount_asked_beside_how_to_apply_comes_from_a_table_its_lead_names():
    # "How much is the burial allowance and how do I apply for it" was refused: the amounts are a table's rows,
    # which say "$2,000" without the words "burial allowance", so no sentence held the amount asked.
    apply = [("A surviving spouse or whoever paid for the burial can apply for the burial allowance with VA Form "
              "21P-530EZ.", ON_TOPIC),
             ("Send the death certificate and the funeral receipts with the burial allowance claim.", NEAR)]
    amounts = [("VA burial allowance maximums, by date of death:", LEAD),
               ("Service-connected death on or after September 11, 2001 — up to $2,000", OFF),
               ("Service-connected death before September 11, 2001 — up to $1,500", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Burial allowance: how to apply",
                          url="https://www.va.gov/1", content="", score=0.8),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Burial allowance amounts",
                          url="https://www.va.gov/2", content="", score=0.7)]
    answer = extractive_generate(question="my brother passed, service connected. how much is the burial allowance "
                                          "and how do i apply for it",
                                 question_vector=QUESTION_VECTOR, chunks=chunks, units={1: apply, 2: amounts},
                                 chunk_types={1: "procedure", 2: "rating_table"}).text
    assert "21P-530EZ" in answer and "up to $2,000" in answer and "up to $1,500" in answer
    # Another amount table whose lead names another allowance does not answer it.
    housing = [("Monthly housing allowance rates:", LEAD), ("Full time — $2,100", OFF), ("Half time — $1,050", OFF)]
    chunks[1] = replace(chunks[1], title="GI Bill housing allowance rates")
    assert extractive_generate(question="how much is the burial allowance and how do i apply for it",
                               question_vector=QUESTION_VECTOR, chunks=chunks, units={1: apply, 2: housing},
                               chunk_types={1: "procedure", 2: "rating_table"}).text == ""


def test_a_page_for_family_members_who_lived_on_base_is_not_the_case_of_one_who_served_there():
    # "Husband was at Camp Lejeune for 6 weeks for training": he served there; the family member program led.
    family = [("Family members who lived at Camp Lejeune for 30 days can get health care costs reimbursed.", ON_TOPIC)]
    veterans = [("Veterans who served at Camp Lejeune for 30 days get VA health care for 15 conditions.", NEAR)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Camp Lejeune Family Member Program",
                          url="https://www.va.gov/1", content="", score=0.72),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Camp Lejeune: VA health care for veterans",
                          url="https://www.va.gov/2", content="", score=0.70)]

    def answer(question: str) -> str:
        return answer_from(question, chunks, {1: family, 2: veterans})

    assert answer("husband was at camp lejeune for about 6 weeks in 1979 for training, now he has bladder cancer. "
                  "does va cover that").startswith("Veterans who served")
    assert answer("my wife and kids lived at camp lejeune in 1980, my daughter has leukemia, can va help").startswith(
        "Family members")


def test_an_amount_asked_for_a_year_the_sources_do_not_speak_of_says_nothing():
    # "What was the 100% rate in 2015": the rates effective December 1, 2025 were given as if they were 2015's.
    rates = [("Monthly compensation for a veteran alone, effective December 1, 2025:", LEAD),
             ("100% — $3,938.58", ON_TOPIC), ("90% — $2,362.30", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="VA disability pay by rating",
                          url="https://www.va.gov/1", content="\n".join(t for t, _ in rates), score=0.8)]

    def answer(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks, units={1: rates},
                                   chunk_types={1: "rating_table"}).text

    assert answer("What was the 100% disability rate in 2015 for a single vet?") == ""
    # No amount given, no year to check: "VA changed how they rate GERD in 2024, what would mine be" is a levels
    # question (it was refused).
    gerd = [("Since May 19, 2024, GERD is rated under the stricture criteria:", LEAD), ("10% — daily medication", OFF)]
    assert extractive_generate(question="heard VA changed how they rate GERD in 2024?? my acid reflux is controlled "
                                        "with omeprazole every day. what would it be", question_vector=QUESTION_VECTOR,
                               chunks=[replace(chunks[0], content="")], units={1: gerd},
                               chunk_types={1: "rating_table"}).text
    assert "$3,938.58" in answer("what is the 100% disability rate for a single vet")
    # A year the source's figures reach ("on or after" it) is theirs.
    burial = [("VA burial allowance maximums, by date of death:", LEAD),
              ("Service-connected death on or after September 11, 2001 — up to $2,000", ON_TOPIC),
              ("Service-connected death before September 11, 2001 — up to $1,500", OFF)]
    chunks[0] = replace(chunks[0], content="\n".join(t for t, _ in burial), title="VA burial allowance amounts")
    assert "$2,000" in extractive_generate(question="how much is the burial allowance for a service connected death "
                                                    "in 2010", question_vector=QUESTION_VECTOR, chunks=chunks,
                                           units={1: burial}, chunk_types={1: "rating_table"}).text


def test_a_table_of_one_row_is_followed_by_its_notes():
    table = [("DC 7528 cancers are rated in 38 CFR 4.115b:", LEAD), ("100% — active malignancy", OFF),
             ("Six months after treatment stops, VA schedules a mandatory exam.", OFF),
             ("Without recurrence, VA then rates the residuals.", OFF), ("A third note.", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Prostate cancer rating, DC 7528",
                          url="https://www.ecfr.gov/1", content="DC 7528", score=0.6, diagnostic_code="7528")]
    answer = extractive_generate(question="what is the rating for prostate cancer after surgery",
                                 question_vector=QUESTION_VECTOR, chunks=chunks, units={1: table},
                                 chunk_types={1: "rating_table"}, codes=("7528",)).text
    assert "100% — active malignancy" in answer and "Six months after" in answer and "residuals" in answer
    assert "A third note" not in answer


def test_a_question_for_the_highest_level_opens_with_the_tables_top_level():
    table = [("DC 5276 flatfoot is rated in 38 CFR 4.71a:", LEAD), ("10% — moderate", OFF),
             ("20% one foot, 30% both feet — severe", OFF), ("30% one foot, 50% both feet — pronounced", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Flat feet rating, DC 5276",
                          url="https://www.ecfr.gov/1", content="DC 5276", score=0.6, diagnostic_code="5276")]

    def answer(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: table}, chunk_types={1: "rating_table"}, codes=("5276",)).text

    assert answer("whats the highest rating for flat feet").startswith("The highest rating under DC 5276 is 50% [1].")
    assert "highest" not in answer("what is the rating for flat feet")
    # A table of several codes does not give its top level to one of them; a year is not a code.
    family = [("Amputations of the leg (DC 5162 to DC 5165), since 2021:", LEAD), ("40% — below the knee", OFF),
              ("90% — at the hip", OFF)]
    chunks[0] = SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Leg amputation rating, DCs 5162 to 5165",
                            url="https://www.ecfr.gov/1", content="\n".join(t for t, _ in family), score=0.6,
                            diagnostic_code="5165")
    text = extractive_generate(question="whats the highest rating for a leg amputation", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units={1: family}, chunk_types={1: "rating_table"}, codes=("5165",)).text
    assert text.startswith("The highest rating for DCs 5162 to 5165 is 90% [1].") and "DC 2021" not in text
    # "Is 40% the max for a back": the whole table, not the 40% row alone.
    spine = [("Back levels of the spine formula, DCs 5235 to 5243:", LEAD), ("20% — flexion to 60 degrees", OFF),
             ("40% — flexion to 30 degrees", OFF), ("100% — unfavorable ankylosis of the entire spine", OFF)]
    chunks[0] = replace(chunks[0], content="\n".join(t for t, _ in spine), diagnostic_code="",
                        title="Back rating levels, spine formula DCs 5235 to 5243")
    text = extractive_generate(question="is 40% the max for a back", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units={1: spine}, chunk_types={1: "rating_table"}).text
    assert text.startswith("The highest rating for DCs 5235 to 5243 is 100% [1].") and "- 20%" in text, text
    # A source that says the highest itself ("short of the entire spine frozen, the neck's highest is 40
    # percent") is read, not the 100% row, which is the whole spine's.
    stated = [*spine, ("Short of the entire spine frozen in place, the back's highest level is 40 percent.", OFF)]
    text = extractive_generate(question="whats the max rating for my back", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units={1: stated}, chunk_types={1: "rating_table"}).text
    assert text.startswith("Short of the entire spine frozen in place, the back's highest level is 40 percent [1].")
    assert "The highest rating" not in text and "- 20%" in text, text
    # "Is there even a higher level or is that as high as it goes": the whole table and its top.
    text = extractive_generate(question="i got 20% for my back, is there even a higher level or is that as high as it goes",
                               question_vector=QUESTION_VECTOR, chunks=chunks, units={1: spine},
                               chunk_types={1: "rating_table"}).text
    assert "- 100% — unfavorable ankylosis" in text and "- 40%" in text, text
    # "A higher level review" is a decision review, not a question for the table's top.
    from verification.generators.extractive import _HIGHEST_RE
    assert not _HIGHEST_RE.search("can i ask for a higher level review of my 40% back rating")
    # The source's own sentence on its maximum, after the rows, leads.
    afib = [("DC 7010 arrhythmias in 38 CFR 4.104:", LEAD), ("10% — one to four episodes a year", OFF),
            ("30% — more than four episodes a year", OFF), ("30 percent is the maximum under DC 7010.", OFF)]
    chunks[0] = replace(chunks[0], content="\n".join(t for t, _ in afib), diagnostic_code="7010",
                        title="Atrial fibrillation rating, DC 7010")
    text = extractive_generate(question="is 30 percent the max for afib", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units={1: afib}, chunk_types={1: "rating_table"}, codes=("7010",)).text
    assert text.startswith("30 percent is the maximum under DC 7010"), text


def test_a_source_holding_a_rare_word_of_the_question_leads():
    overview = [("DIC is a monthly payment for survivors.", LEAD)]
    rates = [("Transitional benefit — $359.00 a month for the first 2 years", NEAR)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="DIC overview", url="https://www.va.gov/1",
                          content="DIC is a monthly payment for survivors.", score=0.62),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="DIC rates", url="https://www.va.gov/2",
                          content="Transitional benefit — $359.00 a month for the first 2 years", score=0.47)]

    def answer(rare: frozenset[str]) -> str:
        return extractive_generate(question="whats the dic transitional benefit", question_vector=QUESTION_VECTOR,
                                   chunks=chunks, units={1: overview, 2: rates}, rare_words=rare).text

    assert answer(frozenset({"transit"})).lstrip("- ").startswith("Transitional benefit")
    assert answer(frozenset()).startswith("DIC is a monthly payment")


def test_a_numbered_step_of_another_source_is_not_borrowed():
    # "How long do I have to appeal": a legacy appeal's first step says "within one year" too, but torn from
    # "the steps of a legacy appeal" it would read as today's way to appeal.
    units = {1: [("A Higher-Level Review must be requested within one year of the decision to appeal.", QUESTION_VECTOR)],
             2: [("The steps of a legacy appeal, for decisions before 2019:", OFF),
                 ("1. File a Notice of Disagreement within one year of the decision to appeal.", vec(1, 0, 0, 0.5))]}
    text = generate("how long do i have to appeal a decision", units, {1: 0.7, 2: 0.6}).text
    assert "Higher-Level Review" in text and "Notice of Disagreement" not in text
    led = generate("how long do i have to appeal a decision", {2: units[2]}, {2: 0.6}).text
    # Its own source keeps it, after the lead that says whose steps they are.
    assert led.index("The steps of a legacy appeal") < led.index("1. File a Notice of Disagreement")


def test_a_level_asked_comes_in_full_not_from_a_conditions_condensed_table():
    # "What do I need to show for 70 percent PTSD": PTSD's page condenses the 70% row to a line; the General
    # Rating Formula's page gives the row in full, even when it ranks below the best few.
    condensed = [("PTSD is rated under the General Rating Formula. Condensed levels:", LEAD),
                 ("50% — reduced reliability", OFF), ("70% — deficiencies in most areas", OFF)]
    full = [("General Rating Formula for Mental Disorders:", LEAD),
            ("70% — deficiencies in most areas, from symptoms such as near-continuous panic", OFF)]
    filler = [("The stressor must be verified.", NEAR)]
    contents = {1: " ".join(t for t, _ in condensed), 4: " ".join(t for t, _ in full)}
    chunks = [chunk(n, cid, score, contents.get(cid, "")) for n, (cid, score) in
              enumerate({1: 0.7, 2: 0.68, 3: 0.67, 4: 0.66}.items(), start=1)]
    types = {1: "rating_table", 4: "rating_table"}
    text = extractive_generate(question="what do i need to show for a 70 percent ptsd rating",
                               question_vector=QUESTION_VECTOR, chunks=chunks,
                               units={1: condensed, 2: filler, 3: filler, 4: full}, chunk_types=types).text
    assert text.startswith("General Rating Formula") and "near-continuous panic" in text
    # With no full row to be had, the condensed one answers.
    alone = extractive_generate(question="what do i need to show for a 70 percent ptsd rating",
                                question_vector=QUESTION_VECTOR, chunks=chunks[:3],
                                units={1: condensed, 2: filler, 3: filler}, chunk_types=types).text
    assert "70% — deficiencies in most areas [1]" in alone


def test_an_asker_who_has_left_service_is_not_answered_by_a_page_for_those_still_serving():
    # "I'm 10% service connected, can I get VR&E": the rules for veterans answer, read although ranked below the
    # best few; the page for service members still on active duty neither leads nor lends a sentence.
    chunks = [benefit_page(1, "What services can VR&E provide?", 0.52, "vre"),
              benefit_page(2, "VR&E eligibility while still on active duty", 0.48, "vre"),
              benefit_page(3, "Can VR&E pay for college?", 0.46, "vre"),
              benefit_page(4, "VR&E eligibility for veterans", 0.45, "vre")]
    types = {1: "narrative", 2: "eligibility", 3: "faq", 4: "eligibility"}
    units = {1: [("VR&E can provide counseling, training and job help.", ON_TOPIC)],
             2: [("Service members still on active duty can get VR&E with a memorandum rating.", ON_TOPIC)],
             3: [("VR&E can pay for college.", NEAR)],
             4: [("A veteran with a service-connected rating of at least 10% may be eligible for VR&E.", NEAR)]}
    text = extractive_generate(question="im 10% service connected can i get vr&e", question_vector=QUESTION_VECTOR,
                               chunks=chunks, units=units, chunk_types=types, benefits=frozenset({"vre"})).text
    assert text.startswith("A veteran with a service-connected rating of at least 10%"), text
    assert "memorandum rating" not in text
    # Still serving, the page for service members is the asker's own.
    serving = extractive_generate(question="im still on active duty, can i get vr&e", question_vector=QUESTION_VECTOR,
                                  chunks=chunks, units=units, chunk_types=types, benefits=frozenset({"vre"})).text
    assert serving.startswith("Service members still on active duty"), serving


def test_a_page_titled_for_the_benefit_asked_is_read_before_pages_that_only_mention_it():
    # "70% combined, highest single rating 30%, can I get unemployability": the combined rating's pages name
    # TDIU in passing and rank higher; the page titled for TDIU is read and answers.
    chunks = [benefit_page(1, "How to reach a 100% combined rating", 0.67, "tdiu"),
              benefit_page(2, "Combined rating: definition", 0.64, "tdiu"),
              benefit_page(3, "Why ratings don't add up", 0.63, "tdiu"), benefit_page(4, "TDIU requirements", 0.62, "tdiu")]
    units = {1: [("Many veterans at 90% combined look at TDIU.", ON_TOPIC)],
             2: [("A combined rating is not a sum; TDIU pays at 100%.", ON_TOPIC)],
             3: [("Ratings combine rather than add, and TDIU is separate.", ON_TOPIC)],
             4: [("TDIU needs a single rating at 60%, or the highest at 40% with a combined 70%.", ON_TOPIC)]}
    text = extractive_generate(question="im 70% combined, highest single rating is 30%, can i get tdiu",
                               question_vector=QUESTION_VECTOR, chunks=chunks, units=units,
                               benefits=frozenset({"tdiu"})).text
    assert text.startswith("TDIU needs a single rating at 60%"), text


def test_a_source_naming_the_form_the_question_writes_answers_however_low_it_scores():
    # "What is form 22-0803": the test-fee page names it; the pages on other forms score far higher.
    other = replace(chunk(1, 1, 0.44, "VA Form 22-5490 is the dependents' application."), title="VA Form 22-5490")
    fees = replace(chunk(2, 2, 0.04, "Submit VA Form 22-0803 for a licensing test fee."), title="Test fees")
    units = {1: [("VA Form 22-5490 is the dependents' application.", ON_TOPIC)],
             2: [("Submit VA Form 22-0803 for a licensing test fee.", OFF)]}
    text = extractive_generate(question="what is form 22-0803", question_vector=QUESTION_VECTOR,
                               chunks=[other, fees], units=units).text
    assert text.startswith("Submit VA Form 22-0803"), text


def test_a_table_of_two_codes_keeps_the_caption_over_each_row_it_serves():
    # The transplant's 100% under "DC 7500, removal of one kidney" read as a nephrectomy's 100%.
    table = [("Kidney codes in 38 CFR 4.115b:", LEAD),
             ("DC 7500, removal of one kidney (nephrectomy):", OFF),
             ("30% — minimum rating after removal", OFF),
             ("DC 7531, kidney transplant after surgery:", OFF),
             ("100% — until a VA exam one year after discharge", OFF),
             ("30% — minimum rating after that period", OFF)]
    whole = generate("what rating for a kidney", {1: table}, {1: 0.7}, {1: "rating_table"}).text
    assert whole.index("DC 7500") < whole.index("- 30% — minimum rating after removal") < whole.index("DC 7531") \
        < whole.index("- 100%")
    level = generate("how long does the 100% rating last after a kidney transplant", {1: table}, {1: 0.7},
                     {1: "rating_table"}).text
    assert "DC 7531" in level and "DC 7500" not in level and level.index("DC 7531") < level.index("- 100%")


def test_the_best_source_stays_first_when_pages_titled_for_the_benefit_rank_below_it():
    # "Do you need a down payment for a VA home loan": the down-payment page answers although its title names
    # the benefit in a form the title check does not read; the pages titled for it do not push it out.
    chunks = [benefit_page(1, "Do you need money down or PMI?", 0.83, "home_loan"),
              benefit_page(2, "VA home loan entitlement", 0.71, "home_loan"),
              benefit_page(3, "Credit score for a VA home loan", 0.70, "home_loan"),
              benefit_page(4, "VA home loan basics", 0.67, "home_loan")]
    units = {1: [("A VA-backed purchase loan usually requires no down payment.", ON_TOPIC)],
             2: [("With full entitlement no down payment is needed up to the appraised value.", NEAR)],
             3: [("Lenders set their own credit score.", NEAR)],
             4: [("VA guarantees part of the loan.", NEAR)]}
    text = extractive_generate(question="do you need a down payment for a va home loan",
                               question_vector=QUESTION_VECTOR, chunks=chunks, units=units,
                               benefits=frozenset({"home_loan"})).text
    assert text.startswith("A VA-backed purchase loan usually requires no down payment"), text


def test_numbered_steps_are_served_whole_as_a_numbered_list_after_their_lead():
    # "Is there a way to speed up my dad's Board appeal": steps 2, 6 and 7 of a legacy appeal's seven read as a
    # broken list; some chosen, all are served, each on its own line after the sentence leading them.
    steps = [("The steps of a legacy appeal, for decisions before 2019:", OFF),
             ("1. File a Notice of Disagreement within one year.", OFF),
             ("2. The regional office issues a Statement of the Case.", ON_TOPIC),
             ("3. File VA Form 9 within 60 days.", OFF),
             ("4. The Board decides the appeal.", ON_TOPIC)]
    text = generate("what happens after the regional office and the board in a legacy appeal", {1: steps},
                    {1: 0.7}).text
    assert text.startswith("The steps of a legacy appeal, for decisions before 2019 [1]:\n1. File a Notice"), text
    assert "\n3. File VA Form 9 within 60 days [1].\n4. The Board" in text


def test_another_sources_instruction_is_not_borrowed():
    # "ER visit at a non-VA hospital": urgent care's "Check that the clinic is in VA's network before going" is
    # the wrong thing to do in an emergency.
    units = {1: [("Notify VA within 72 hours of emergency care at a non-VA hospital.", QUESTION_VECTOR)],
             2: [("Check that the clinic is in VA's network before going to a non-VA hospital.", vec(1, 0, 0, 0.5))]}
    text = generate("er visit at a non va hospital", units, {1: 0.7, 2: 0.6}).text
    assert "Notify VA within 72 hours" in text and "Check that the clinic" not in text
    assert "Check that the clinic" in generate("er visit at a non va hospital", {2: units[2]}, {2: 0.6}).text


def test_another_sources_how_to_for_another_step_is_not_borrowed():
    # "The Board denied my appeal, what are my options": the Board Appeal page's "To request a Board Appeal,
    # complete VA Form 10182" contradicts the options page's "you cannot file a second Board Appeal".
    units = {1: [("After a Board decision you can file a Supplemental Claim or appeal to the Court.", QUESTION_VECTOR)],
             2: [("To request a Board Appeal, complete VA Form 10182.", vec(1, 0, 0, 0.5))]}
    text = generate("board denied my appeal, what are my options", units, {1: 0.7, 2: 0.6}).text
    assert "Supplemental Claim" in text and "10182" not in text
    # Asked how to file, the form is what is wanted.
    assert "10182" in generate("how do i request a board appeal", units, {1: 0.7, 2: 0.6}).text


def test_a_question_naming_no_condition_borrows_nothing_from_a_conditions_page():
    # "Can I do my Board hearing from home": the hearing loss exam's page matches "hearing" and nothing else.
    units = {1: [("You can have a virtual hearing from a location of your choice.", QUESTION_VECTOR)],
             2: [("The exam must be done by a licensed audiologist without hearing aids.", vec(1, 0, 0, 0.5))]}
    chunks = [chunk(1, 1, 0.7), replace(chunk(2, 2, 0.6), diagnostic_code="6100")]
    text = answer_from("can i do my board hearing from home", chunks, units)
    assert "virtual hearing" in text and "audiologist" not in text
    plain = [chunk(1, 1, 0.7), chunk(2, 2, 0.6)]
    assert "audiologist" in answer_from("can i do my board hearing from home", plain, units)


def test_the_rule_answers_before_a_worked_example_of_it():
    # "What is the effective date for an increased rating": the example page scored a little higher.
    example = replace(chunk(1, 1, 0.70), title="Example of the increased-rating effective date rule")
    rule = replace(chunk(2, 2, 0.66), title="Effective date of an increased rating")
    units = {1: [("A veteran rated 10% for a knee sees an orthopedist on February 5.", ON_TOPIC)],
             2: [("The effective date of an increase can be up to a year before the claim.", ON_TOPIC)]}
    text = extractive_generate(question="what is the effective date for an increased rating",
                               question_vector=QUESTION_VECTOR, chunks=[example, rule], units=units).text
    assert text.startswith("The effective date of an increase"), text


def test_a_tables_note_on_what_else_was_asked_comes_with_it():
    # "What is a mastectomy rated and do I get SMC": the table's note pointing to SMC(k) answers the second part.
    table = [("DC 7626 breast surgery is rated by the type of surgery:", LEAD),
             ("30% one breast, 50% both — simple mastectomy", OFF),
             ("40% one breast, 60% both — modified radical mastectomy", OFF),
             ("50% one breast, 80% both — radical mastectomy", OFF),
             ("Each level also points to special monthly compensation (k).", OFF),
             ("Active breast cancer is rated under another code.", OFF)]
    asked = generate("what is a mastectomy rated and do i get smc", {1: table}, {1: 0.7}, {1: "rating_table"}).text
    assert asked.rstrip().endswith("Each level also points to special monthly compensation (k) [1].")
    plain = generate("what is a mastectomy rated", {1: table}, {1: 0.7}, {1: "rating_table"}).text
    assert "special monthly compensation" not in plain


@pytest.mark.parametrize("question", ["supplemental claim form #", "supplemental claim form number"])
def test_a_form_number_asked_is_answered_by_the_sentence_naming_the_form(question):
    units = {1: [("A Supplemental Claim lets you add new and relevant evidence.", ON_TOPIC)],
             2: [("File a Supplemental Claim on VA Form 20-0995.", NEAR)]}
    assert generate(question, units, {1: 0.7, 2: 0.62}).text.startswith("File a Supplemental Claim on VA Form 20-0995")


def test_a_survivors_page_lends_nothing_to_a_veterans_own_question():
    # "I'm 58, can I still get the pension": Survivors Pension's rules are not the veteran's.
    units = {1: [("A veteran under 65 qualifies with a permanent and total disability.", QUESTION_VECTOR)],
             2: [("A surviving spouse qualifies if married to the veteran for at least 1 year.", vec(1, 0, 0, 0.5))]}
    chunks = [chunk(1, 1, 0.7), replace(chunk(2, 2, 0.6), title="Survivors Pension: who qualifies")]
    assert "surviving spouse" not in answer_from("i'm 58 not 65, can i still get the pension", chunks, units)
    assert "surviving spouse" in answer_from("my husband died at 58, can i still get the pension", chunks, units)
    assert "surviving spouse" in answer_from("is the DIC or the pension better at 58", chunks, units)


def test_a_rules_source_far_below_the_best_is_not_read_for_a_can_i_get_question():
    # "Can I get pension if I have a house": what counts toward net worth answers; the limit's page, an
    # eligibility source well below it, would lead on its bonus.
    units = {1: [("Net worth does not count your primary residence.", QUESTION_VECTOR)],
             2: [("Assets include bank accounts and stocks.", OFF)], 3: [("Income is what you receive.", OFF)],
             4: [("Net worth must not exceed the yearly limit.", ON_TOPIC)]}
    text = generate("can i get pension if i have a house", units, {1: 0.56, 2: 0.45, 3: 0.43, 4: 0.40},
                    {4: "eligibility"}).text
    assert text.startswith("Net worth does not count your primary residence"), text
    # Close to the best, it is read and its rules lead.
    text = generate("can i get pension if i have a house", units, {1: 0.56, 2: 0.55, 3: 0.54, 4: 0.50},
                    {4: "eligibility"}).text
    assert text.startswith("Net worth must not exceed the yearly limit"), text


def test_a_source_titled_with_a_two_word_name_the_question_writes_is_read_and_leads():
    # "What is continuous pursuit": three intent-to-file pages match "effective date" better; the one page titled
    # "(continuous pursuit)" ranks fourth.
    units = {1: [("An intent to file holds your effective date for one year.", QUESTION_VECTOR)],
             2: [("An intent to file expires after one year.", ON_TOPIC)],
             3: [("Submit an intent to file by phone.", ON_TOPIC)],
             4: [("You keep the original effective date if you file each next review on time.", NEAR)]}
    chunks = [replace(chunk(n, n, score), title=title) for n, score, title in [
        (1, 0.56, "Intent to file: protecting your effective date"), (2, 0.54, "When an intent to file expires"),
        (3, 0.53, "Intent to file: definition"), (4, 0.50, "Keeping your effective date (continuous pursuit)")]]
    asked = answer_from("what is continuous pursuit and how does it protect my effective date", chunks, units)
    assert asked.startswith("You keep the original")
    # Words split by punctuation are no name: "pursuit, continuous" reads as two.
    split = answer_from("what protects my effective date, pursuit, continuous filing", chunks, units)
    assert "You keep the original" not in split
    # A pair whose words the sources read hold already is no new name: "I filed on the intent docket, can I
    # switch" is answered by the pages read, not by the one titled "intent docket".
    chunks[3] = replace(chunks[3], title="Intent docket rules")
    chunks[2] = replace(chunks[2], content="Submit an intent to file on any docket by phone.")
    held = answer_from("i filed on the intent docket, can i switch to protect my effective date", chunks, units)
    assert "You keep the original" not in held


def test_the_leading_source_gives_up_to_five_of_its_sentences():
    # "Never enrolled, got out 7 years ago, can I still get VA health care": the fifth sentence held the
    # 10-year window for combat veterans.
    sentences = [(f"Enrollment rule number {n} applies to veterans.", vec(1, 0.1 * n, 0, 0)) for n in range(1, 7)]
    text = generate("can i still enroll in va health care", {1: sentences}, {1: 0.7}).text
    assert all(f"rule number {n} " in text for n in range(1, 6)) and "rule number 6" not in text, text


def test_a_hearing_before_the_board_reads_no_page_on_hearing_loss():
    # "Do I have to travel to Washington DC for my BVA hearing": the hearing loss pages match "hearing" best.
    units = {1: [("Hearing loss must meet VA's definition of impaired hearing.", QUESTION_VECTOR)],
             2: [("You can have a virtual hearing from home instead of travelling to Washington.", NEAR)]}
    chunks = [replace(chunk(1, 1, 0.5), title="Hearing loss exams for VA rating", diagnostic_code="6100"),
              replace(chunk(2, 2, 0.41), title="Board Appeal option 3: Hearing docket")]
    board = answer_from("do i have to travel to washington for my BVA hearing", chunks, units)
    assert board.startswith("You can have a virtual hearing")
    assert "impaired hearing" in answer_from("do i have to travel to washington for my hearing loss exam", chunks, units)


def test_a_rating_question_borrows_no_table_from_a_page_for_survivors():
    # "What rating do I need to get extra money for dependents": DIC's table for a surviving spouse led.
    units = {1: [("Veterans rated 30% or more get extra compensation for dependents.", QUESTION_VECTOR)],
             2: [("DIC monthly amounts for a surviving spouse:", OFF), ("Basic monthly rate — $1,699.36", OFF),
                 ("Each child under 18 add-on — $421.00", OFF)]}
    chunks = [replace(chunk(1, 1, 0.6), title="Extra compensation for dependents"),
              replace(chunk(2, 2, 0.46), title="DIC rates: how much DIC pays a surviving spouse")]
    types = {2: "rating_table"}
    assert "$1,699.36" not in answer_from("what rating do i need to get extra money for dependents", chunks, units,
                                          chunk_types=types)
    assert "$1,699.36" in answer_from("my husband died, what rating amounts do i get for dependents", chunks, units,
                                      chunk_types=types)


def test_another_source_gives_up_to_two_of_its_sentences():
    # "What should my buddy put in his statement": the buddy statement page's second sentence held "signed".
    units = {1: [("A buddy statement describes what the writer saw.", LEAD)],
             2: [("A buddy statement goes on VA Form 21-10210.", vec(1, 0, 0, 0.5)),
                 ("Your buddy must sign and date the statement.", vec(1, 0, 0, -0.5)),
                 ("Copies can be sent online.", vec(1, 0.5, 0, 0))]}
    text = generate("what should my buddy put in his statement", units, {1: 0.7, 2: 0.69}).text
    assert "21-10210 [2]" in text and "sign and date" in text and "sent online" not in text, text


def test_a_question_on_va_health_care_is_not_led_by_another_programs_time_limit():
    # "How long after getting out do combat vets get free VA health care": VR&E's "ends 12 years from" led.
    units = {1: [("Combat veterans have enhanced eligibility for a set period after discharge.", ON_TOPIC)],
             2: [("Your basic period of eligibility ends 12 years from separation.", QUESTION_VECTOR)],
             3: [("Copays depend on your priority group.", OFF)], 4: [("Enroll online or by phone.", OFF)]}
    chunks = [benefit_page(1, "Enhanced eligibility for combat veterans", 0.76, "va_health_care"),
              benefit_page(2, "VR&E 12-year basic period", 0.75, "vre"),
              benefit_page(3, "VA health care copays", 0.6, "va_health_care"),
              benefit_page(4, "How to enroll in VA health care", 0.59, "va_health_care")]
    text = answer_from("how long after getting out do combat vets get va health care", chunks, units,
                       benefits=frozenset({"va_health_care"}))
    assert "12 years" not in text and text.startswith("Combat veterans have enhanced eligibility"), text


def test_a_sources_own_yes_is_dropped_and_the_sentence_still_starts_with_a_capital():
    # "Can side effects from my PTSD meds be claimed": the page's "Yes, a condition caused ..." answers its own
    # question, which may be put the other way round; what follows it stands alone and reads as a sentence.
    units = {1: [("Yes, a condition caused by treatment for a service-connected disability can qualify.",
                  QUESTION_VECTOR)]}
    text = generate("can side effects from my meds be claimed", units, {1: 0.7}).text
    assert text.startswith("A condition caused by treatment"), text
    assert "Yes" not in text


def test_with_a_status_the_only_benefit_named_the_source_titled_for_what_is_asked_answers():
    # "I'm 100% P&T, will VA do my dental implants": the dental classes' page answers, not P&T's CHAMPVA page.
    units = {1: [("Class IV covers veterans rated 100% for service-connected disabilities.", ON_TOPIC)],
             2: [("CHAMPVA shares the cost of care for the family of a veteran rated P&T.", ON_TOPIC)]}
    dental = replace(chunk(1, 1, 0.61), title="VA dental care classes")
    pt = benefit_page(2, "What a P&T rating unlocks: CHAMPVA", 0.41, "p_and_t")
    text = answer_from("im 100% p&t will va do my dental implants", [dental, pt], units,
                       benefits=frozenset({"p_and_t"}))
    assert text.startswith("Class IV covers"), text
    # Asked about nothing else, the status's own page answers.
    assert answer_from("im p&t what else do i get", [dental, pt], units,
                       benefits=frozenset({"p_and_t"})).startswith("CHAMPVA shares")


def test_a_status_named_alone_is_answered_by_a_programs_pages():
    # "He was 100% P&T for 12 years and died in a car wreck, can I get anything": P&T is a status, not a program,
    # so DIC's pages answer rather than nothing being said.
    units = {1: [("Survivors can get DIC if the veteran was rated totally disabled for 10 years.", ON_TOPIC)]}
    dic = benefit_page(1, "DIC when a veteran was rated totally disabled", 0.69, "dic")
    text = answer_from("he was 100% p&t for 12 years and died, can i get anything", [dic], units,
                       benefits=frozenset({"p_and_t"}))
    assert text.startswith("Survivors can get DIC"), text
    # A program named, met only by another's pages, is still not answered from them.
    assert answer_from("how much does chapter 35 pay", [dic], units, benefits=frozenset({"dea"})) == ""


APNEA = [
    ("DC 6847 sleep apnea is rated in 38 CFR 4.97:", LEAD),
    ("0% — no symptoms, but sleep-disordered breathing is documented", OFF),
    ("30% — persistent daytime sleepiness", OFF),
    ("50% — requires use of a breathing assistance device such as a CPAP machine", OFF),
    ("100% — chronic respiratory failure, or requires a tracheostomy", OFF),
]


def table_answer(question: str, table: list) -> str:
    """The answer from one source holding ``table``, a rating table."""
    return generate(question, {1: table}, {1: 0.8}, {1: "rating_table"}).text


def test_the_one_row_the_askers_description_names_leads_the_table():
    def answer(question: str) -> str:
        return table_answer(question, APNEA)

    # "I use a CPAP every night": of the rows only the 50% one says CPAP; it leads, the others follow in order.
    text = answer("i use a cpap every night for sleep apnea, what rating is that")
    assert text.startswith("- 50% — requires use of a breathing assistance device"), text
    assert text.index("DC 6847 sleep apnea") < text.index("- 0%") < text.index("- 30%") < text.index("- 100%")
    assert text.count("CPAP machine") == 1
    # Not a row the asker says is not theirs, and not a word several rows share.
    assert answer("i dont use a cpap but sleep apnea wrecks me, what rating").startswith("DC 6847")
    assert answer("what rating for sleep apnea that requires something").startswith("DC 6847")
    # Asked for the levels alone, the table keeps its order.
    assert answer("what are the sleep apnea ratings").startswith("DC 6847")
    # What the asker says did not work is not their row either.
    hives = [("DC 7825 chronic urticaria (hives) is rated in 38 CFR 4.118:", LEAD),
             ("10% — controlled with first-line treatment (antihistamines)", OFF),
             ("30% — needs second-line treatment for control, such as corticosteroids", OFF),
             ("60% — refractory hives that need third-line treatment", OFF)]
    assert table_answer("antihistamines dont control my hives anymore, what rating", hives).startswith("DC 7825")
    assert table_answer("hives, antihistamines dont control it so im on corticosteroids, what %", hives).startswith(
        "- 30% — needs second-line treatment")


def test_a_funeral_attended_is_no_burial_benefit_asked():
    from verification.generators.extractive import benefits_asked

    def asked(question: str) -> set[str]:
        return {e.value for e in benefits_asked(question)}

    assert "burial" not in asked("my C&P is the same day as my brother's funeral, can I reschedule")
    assert "burial" not in asked("I'm flying to my mom's funeral next week and will miss my exam")
    assert "burial" in asked("my dad's funeral cost 9000, does VA pay for the funeral?")
    assert "burial" in asked("does va help pay for a veteran's funeral")


def test_an_exposure_told_in_the_story_is_no_benefit_asked_when_the_question_names_one():
    from verification.generators.extractive import benefits_asked

    def asked(question: str) -> list[str]:
        return sorted(e.value for e in benefits_asked(question))

    assert asked("My husband died of prostate cancer from agent orange. I get DIC. Will they take my SBP away because "
                 "I get DIC?") == ["dic"]
    # In brackets, or told as the cause beside another benefit, it is the story too (the Agent Orange Registry exam
    # answered "diabetes is service connected (agent orange), can I get paid for the ED", Agent Orange DIC "I get DIC,
    # if I get married again what happens").
    assert "agent_orange" not in asked("got ED from my diabetes meds, diabetes is service connected (agent orange). "
                                       "can i get paid for that?")
    assert asked("my husband died from agent orange cancer 2 yrs ago and I get DIC. if I get married again what "
                 "happens") == ["dic"]
    # Asked about itself, the exposure stays.
    assert "agent_orange" in asked("My husband was in Vietnam. Is prostate cancer on the agent orange list?")
    # A program in the story stays: how the two meet is asked.
    assert asked("I used up all 36 months of my post 9/11 GI bill. I'm 50% service connected. Can I still use VR&E "
                 "for a masters degree?") == ["gi_bill_post_911", "vre"]


def test_the_row_of_the_grade_of_severity_the_question_names_leads():
    sciatic = [("DC 8520 paralysis of the sciatic nerve is rated in 38 CFR 4.124a:", LEAD),
               ("10% — mild incomplete paralysis", OFF),
               ("20% — moderate incomplete paralysis", OFF),
               ("40% — moderately severe incomplete paralysis", OFF),
               ("60% — severe incomplete paralysis with marked muscular atrophy", OFF),
               # A note naming a grade made that word the table's own, so no row led.
               ("With only sensory symptoms the rating should be mild or at most moderate.", OFF)]
    assert table_answer("what does mild sciatic nerve get", sciatic).startswith("- 10% — mild"), sciatic
    assert table_answer("examiner wrote moderately severe for my sciatic nerve, what %", sciatic).startswith("- 40%")
    assert table_answer("severe sciatic nerve paralysis what rating", sciatic).startswith("- 60%")
    # Two grades named: neither leads.
    assert table_answer("is mild or moderate sciatic nerve worth more", sciatic).startswith("DC 8520")


def test_the_highest_row_whose_frequency_the_askers_meets_leads():
    migraine = [("DC 8100 migraine in 38 CFR 4.124a rates headaches by how often prostrating attacks happen:", LEAD),
                ("0% — attacks less frequent than the 10 percent level", OFF),
                ("10% — characteristic prostrating attacks averaging one every 2 months", OFF),
                ("30% — characteristic prostrating attacks averaging once a month", OFF),
                ("50% — very frequent, completely prostrating and prolonged attacks", OFF)]
    # "2 or 3 a month" meets once a month (30%); its "2" named the 10% row's "every 2 months".
    text = table_answer("what does the va rate migraines at? i get 2 or 3 a month where i have to lay down", migraine)
    assert text.startswith("- 30% — characteristic prostrating attacks averaging once a month"), text
    assert table_answer("migraines about once every 2 months, what rating", migraine).startswith("- 10%")
    assert table_answer("what are the migraine ratings", migraine).startswith("DC 8100")
    # "Every week" and "weekly" said of attacks are rates too; "every other month" is one every 2 months.
    assert table_answer("va rating for migraines that make me lay down every week", migraine).startswith("- 30%")
    assert table_answer("weekly migraine attacks what rating", migraine).startswith("- 30%")
    assert table_answer("migraine attacks every other month, what rating", migraine).startswith("- 10%")
    # Less often than the lowest row's frequency: the row for attacks less frequent than it.
    assert table_answer("migraines once every 3 months rating", migraine).startswith("- 0%")


def test_a_rows_first_frequency_is_its_own_and_or_more_is_a_frequency():
    stricture = [("Since May 19, 2024, DC 7206 GERD is rated under the esophageal stricture criteria of DC 7203:", LEAD),
                 ("10% — stricture that requires daily medication to control dysphagia", OFF),
                 ("30% — recurrent stricture that needs dilatation (stretching) no more than 2 times a year", OFF),
                 ("50% — stricture needing dilatation 3 or more times a year, dilatation with steroids at least once a "
                  "year, or an esophageal stent", OFF),
                 ("80% — refractory stricture with aspiration, treated with a feeding tube", OFF)]
    # Twice a year meets "no more than 2 times a year" (30%), not the 50% row's steroid dilatation once a year.
    text = table_answer("my esophagus narrowed and i get it stretched about twice a year, what would va rate that",
                        stricture)
    assert text.startswith("- 30%"), text
    assert table_answer("my esophagus gets dilated 4 times a year for my gerd, what rating", stricture).startswith("- 50%")


def test_a_word_said_not_to_be_so_four_words_on_names_no_row():
    gerd = [("Since May 19, 2024, DC 7206 GERD is rated under the esophageal stricture criteria of DC 7203:", LEAD),
            ("0% — documented history without daily symptoms or need for daily medication", OFF),
            ("10% — stricture that requires daily medication to control dysphagia", OFF),
            ("30% — recurrent stricture that needs dilatation (stretching) no more than 2 times a year", OFF),
            ("50% — recurrent stricture needing dilatation 3 or more times a year", OFF)]
    text = table_answer("I take omeprazole but have never had my esophagus stretched. what would i get", gerd)
    assert text.startswith("Since May 19, 2024"), text
    # A daily pill is no rate of attacks: the row needing dilatation 3 or more times a year does not lead.
    assert table_answer("gerd rating now, i take a daily pill for swallowing problems", gerd).startswith("Since May")


def test_the_branch_of_a_dated_rule_that_fits_the_askers_year_of_leaving_leads():
    # "I was discharged in 2010, am I still eligible for VR&E": the page opens with the rule for those who left on
    # or after January 1, 2013; the one for those who left before it leads.
    units = {1: [("If you were discharged on or after January 1, 2013, there is no time limit.", QUESTION_VECTOR),
                 ("If you were discharged before January 1, 2013, eligibility ends 12 years after.", ON_TOPIC)]}

    def answer(question: str) -> str:
        return generate(question, units, {1: 0.8}).text

    assert answer("i was discharged from the army in 2010, am i still eligible for vr&e").startswith(
        "If you were discharged before January 1, 2013")
    assert answer("got out in 2016, can i still use vr&e").startswith("If you were discharged on or after")
    # No year of leaving, or the date's own year: the page's order stands.
    assert answer("can i still use vr&e").startswith("If you were discharged on or after")
    assert answer("got out in 2013, can i still use vr&e").startswith("If you were discharged on or after")
    # Years ago are a year too.
    assert answer("im rated 20% and got out about 15 years ago, can i still use voc rehab").startswith(
        "If you were discharged before January 1, 2013")
    # A death's year meets a death's branches: "killed in Afghanistan in 2012", the Fry Scholarship's time limit.
    fry = {1: [("If the service member died on or after January 1, 2013, there is no time limit.", QUESTION_VECTOR),
               ("If the death was before January 1, 2013, a surviving spouse's eligibility ends 15 years after the "
                "death.", ON_TOPIC)]}
    assert generate("husband was killed in afghanistan in 2012 on active duty, is there a deadline to use the fry "
                    "scholarship", fry, {1: 0.8}).text.startswith("If the death was before January 1, 2013")
    assert generate("husband died in 2015, is there a deadline to use the fry scholarship", fry, {1: 0.8}).text \
        .startswith("If the service member died on or after")


COPD = [
    ("DC 6604 COPD is rated on pulmonary function tests:", LEAD),
    ("10% — FEV-1 71 to 80 percent predicted, or DLCO 66 to 80 percent predicted", OFF),
    ("30% — FEV-1 56 to 70 percent, or DLCO 56 to 65 percent", OFF),
    ("60% — FEV-1 40 to 55 percent, or DLCO 40 to 55 percent", OFF),
    ("100% — FEV-1 below 40 percent, or DLCO below 40 percent", OFF),
]


def test_a_measurement_inside_one_rows_range_puts_that_row_first():
    def answer(question: str) -> str:
        return table_answer(question, COPD)

    # Every row speaks of FEV-1 and DLCO; the measurement decides.
    assert answer("copd with fev1 at 45 percent what rating").startswith("- 60% — FEV-1 40 to 55 percent")
    assert answer("my DLCO was 60 percent predicted, copd rating?").startswith("- 30% — FEV-1 56 to 70 percent")
    # A rating is no measurement, and a value on two rows' edge decides nothing.
    assert answer("im rated 60 percent for copd, what are the levels").startswith("DC 6604")
    assert answer("my fev1 is 55 percent and dlco 56 percent, what rating").startswith("DC 6604")
    # The test named decides: FEV-1 at 70 is the 30% row, though the 10% row's DLCO range holds 70 too.
    assert answer("my fev1 came back 70 percent predicted, what rating").startswith("- 30% — FEV-1 56 to 70 percent")
    # A measurement two rows hold puts neither first, even when only one of them says "predicted".
    assert answer("my lung test came back 70 percent predicted, what rating").startswith("DC 6604")



GI_TIERS = [
    ("Your Post-9/11 GI Bill percentage depends on your active-duty service:", LEAD),
    ("100% — at least 36 months of active duty, or a Purple Heart with an honorable discharge, or at least 30 "
     "continuous days and a discharge for a service-connected disability", OFF),
    ("90% — at least 30 months but less than 36 months", OFF),
    ("70% — at least 18 months but less than 24 months", OFF),
    ("60% — at least 6 months but less than 18 months", OFF),
    ("50% — at least 90 days but less than 6 months", OFF),
]


def test_a_higher_row_the_askers_words_name_wins_over_the_row_their_measurement_meets():
    # 11 months meet the 60% row, but a Purple Heart is the 100% row's other way in.
    assert table_answer("I got a Purple Heart but only served 11 months, discharged honorably. What's my GI Bill "
                        "percentage?", GI_TIERS).startswith("- 100% — at least 36 months")
    assert table_answer("I served 11 months, what's my GI Bill percentage?", GI_TIERS).startswith("- 60% — at least 6")
    # A discharge for a service-connected disability is another: "service connected" counts here.
    assert table_answer("i did 20 months active duty and got medically discharged for a service connected knee injury. "
                        "what % gi bill am i at", GI_TIERS).startswith("- 100% — at least 36 months")
    assert table_answer("i did 20 months active duty, what % gi bill am i at", GI_TIERS).startswith("- 70% — at least 18")


FEES = [
    ("For purchase loans the funding fee is a percentage of the loan amount:", LEAD),
    ("First use, less than 5% down — 2.15%", OFF),
    ("First use, 5% or more down — 1.5%", OFF),
    ("First use, 10% or more down — 1.25%", OFF),
    ("After first use, less than 5% down — 3.3%", OFF),
    ("After first use, 5% or more down — 1.5%", OFF),
    ("After first use, 10% or more down — 1.25%", OFF),
]


def test_the_funding_fee_row_of_the_askers_use_and_down_payment_leads():
    def answer(question: str) -> str:
        chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="VA funding fee rates for purchase loans",
                              url="https://www.va.gov/1", content="\n".join(t for t, _ in FEES), score=0.8)]
        # As the pipeline asks it: with the lay terms appended ("after first use" for a loan not the first).
        return extractive_generate(question=lay_terms_expand(text=question), question_vector=QUESTION_VECTOR,
                                   chunks=chunks, units={1: FEES}, chunk_types={1: "rating_table"}).text

    assert answer("using my VA loan for the 2nd time and putting 5% down, what funding fee % do I pay").startswith(
        "- After first use, 5% or more down — 1.5% [1]")
    assert answer("my second VA loan with nothing down, how much is the funding fee").startswith(
        "- After first use, less than 5% down — 3.3% [1]")
    assert answer("first time va loan with 12% down, what funding fee percent").startswith(
        "- First use, 10% or more down — 1.25% [1]")
    # The down payment alone: both uses' rows for it.
    text = answer("what funding fee percent with 5% down")
    assert text.startswith("- First use, 5% or more down — 1.5% [1]\n- After first use, 5% or more down — 1.5% [1]")
    # Neither known: the table as it is.
    assert answer("what funding fee percent do I pay").startswith("For purchase loans")
    # No fee asked about: "my realtor says I need 3.5%" moves no row.
    assert answer("is it true a va loan needs zero down payment? my realtor says i need 3.5%").startswith(
        "For purchase loans")


DIABETES = [
    ("DC 7913 diabetes mellitus is rated on its treatment:", LEAD),
    ("10% — manageable by restricted diet only", OFF),
    ("20% — insulin and restricted diet, or an oral hypoglycemic agent and restricted diet", OFF),
    ("40% — insulin, restricted diet and regulation of activities", OFF),
]


def test_words_only_one_row_holds_name_it_among_rows_sharing_others():
    # Every row says "restricted diet"; "oral hypoglycemic agent" (metformin, in the schedule's words) only the 20%.
    question = lay_terms_expand(text="type 2, metformin twice a day and a restricted diet, no insulin, what rating")
    assert table_answer(question, DIABETES).startswith("- 20% — insulin and restricted diet, or an oral"), question
    assert table_answer("diabetes on a restricted diet, what rating", DIABETES).startswith("DC 7913")


def test_a_device_va_provides_is_answered_by_its_page_not_the_conditions_rules():
    # "Does VA give hearing aids even if my hearing loss isn't service connected, I have 10% for my knee" led with
    # the definition of hearing impairment for service connection: the condition's name went first.
    rules = [("Before VA can service connect hearing loss (DC 6100), hearing must meet 38 CFR 3.385.", ON_TOPIC)]
    aids = [("VA gives hearing aids to enrolled veterans with any compensable service-connected disability.", NEAR)]
    chunks = [replace(chunk(1, 1, 0.7, rules[0][0]), title="Hearing loss for service connection (DC 6100)",
                      diagnostic_code="6100"),
              replace(chunk(2, 2, 0.8, aids[0][0]), title="Does VA provide hearing aids?")]
    text = answer_from("does va give hearing aids even if my hearing loss isnt service connected. i have 10% for my knee",
                       chunks, {1: rules, 2: aids}, codes=("6100",))
    assert text.startswith("VA gives hearing aids"), text


def test_the_askers_own_dates_pick_the_effective_date_branch():
    general = [("For most claims the effective date is the later of the date VA received the claim and the date "
                "entitlement arose.", ON_TOPIC)]
    discharge = [("If VA receives your claim within one year after you leave active service, the effective date can be "
                  "the day after your separation.", NEAR),
                 ("If VA receives the claim more than one year after separation, the effective date is the date VA "
                  "received the claim.", NEAR)]
    chunks = [replace(chunk(1, 1, 0.8, general[0][0]), title="Effective date: the general rule"),
              replace(chunk(2, 2, 0.7, " ".join(t for t, _ in discharge)), title="Effective date within a year")]

    def answer(question: str) -> str:
        return answer_from(question, chunks, {1: general, 2: discharge})

    assert answer("got out of the army aug 2024 and filed my claim in may 2025, what would my effective date be"
                  ).startswith("If VA receives your claim within one year")
    assert answer("separated sept 30 2023, VA got my claim nov 15 2024. whats my effective date").startswith(
        "If VA receives the claim more than one year")
    assert answer("I separated in June 2023 and didnt file my claim until March 2025. will they back date it to my "
                  "discharge?").startswith("If VA receives the claim more than one year")
    assert answer("what is an effective date").startswith("For most claims")


def test_a_proposed_reduction_is_not_answered_with_a_decision_reviews_window():
    board = [("You must submit the evidence within 90 days from the date the Board receives your VA Form 10182.",
              ON_TOPIC)]
    proposal = [("You have 60 days to submit evidence showing why compensation should stay at the current level.",
                 NEAR)]
    chunks = [replace(chunk(1, 1, 0.7, board[0][0]), title="Board Appeal: Evidence Submission docket (90 days)"),
              replace(chunk(2, 2, 0.8, proposal[0][0]), title="Proposed rating reductions: 60 days to respond")]

    def answer(question: str) -> str:
        return answer_from(question, chunks, {1: board, 2: proposal})

    assert answer("va proposes to reduce my ptsd from 70 to 30, how long do i have to send evidence").startswith(
        "You have 60 days")
    # A Board appeal named: its window answers.
    assert answer("i filed a board appeal on the proposed reduction, how long do i have to send evidence").startswith(
        "You must submit the evidence within 90 days")


def test_money_down_makes_a_funding_fee_question_a_purchase():
    # "First va loan with 0 down" got the cash-out refinance table, which ranked above the purchase one in meaning.
    other = [("Funding fee rates for loans other than purchase loans:", ON_TOPIC),
             ("- Cash-out refinance, first use — 2.15%", OFF), ("- Cash-out refinance, after first use — 3.3%", OFF),
             ("- Interest Rate Reduction Refinancing Loan (IRRRL) — 0.5%", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Funding fee for cash-out refinance and IRRRL",
                          url="https://www.va.gov/1", content="\n".join(t for t, _ in other), score=0.8),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Funding fee rates for purchase loans",
                          url="https://www.va.gov/2", content="\n".join(t for t, _ in FEES), score=0.7)]
    text = extractive_generate(question="my funding fee for first va loan with 0 down, what %",
                               question_vector=QUESTION_VECTOR, chunks=chunks, units={1: other, 2: FEES},
                               chunk_types={1: "rating_table", 2: "rating_table"}).text
    assert text.startswith("- First use, less than 5% down — 2.15% [2]"), text


def test_a_condition_whose_head_word_no_source_holds_gets_no_other_conditions_table():
    nerves = [("DC 8520 rates radiculopathy of the sciatic nerve:", LEAD), ("10% — mild incomplete paralysis", OFF),
              ("20% — moderate incomplete paralysis", OFF)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Sciatic nerve radiculopathy rating, DC 8520",
                          url="https://www.ecfr.gov/1", content="\n".join(t for t, _ in nerves), score=0.6)]

    def answer(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: nerves}, chunk_types={1: "rating_table"}).text

    assert answer("what is the va rating for restless leg syndrome") == ""
    # Asked as "how does the VA rate X" or "X rating?", and with a generic noun after the name ("crohns disease").
    assert answer("how does the va rate crohns disease? i have flare ups") == ""
    assert answer("dupuytrens contracture rating? my fingers curl in") == ""
    # The head word held, whatever the lay words before it: "a bad sciatic nerve", "pinched nerve".
    assert answer("what is the va rating for a bad sciatic nerve").startswith("DC 8520")
    assert answer("whats the rating for my pinched nerve").startswith("DC 8520")
    assert answer("how does the va rate sciatic nerve damage").startswith("DC 8520")
    assert answer("sciatic nerve rating?").startswith("DC 8520")


COMPENSATION_ALONE = [
    ("Monthly compensation for a veteran with no spouse, child or dependent parent:", LEAD),
    ("- 60% — $1,435.02", OFF),
    ("- 70% — $1,808.45", OFF),
    ("From 30 percent up, VA pays more for a spouse, children or dependent parents.", NEAR),
]


def test_a_table_for_a_veteran_alone_says_first_that_a_family_is_paid_more_when_the_asker_names_one():
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="Compensation amounts for a veteran alone",
                          url="https://www.va.gov/1", content="\n".join(t for t, _ in COMPENSATION_ALONE), score=0.8)]

    def answer(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: COMPENSATION_ALONE}, chunk_types={1: "rating_table"}).text

    assert answer("70 percent, married with 2 kids, how much do i get a month").startswith(
        "From 30 percent up, VA pays more for a spouse")
    assert answer("how much is 60% with my wife").startswith("From 30 percent up")
    assert answer("im single and rated 60%, how much is my check").startswith("Monthly compensation for a veteran")


def test_parents_asking_about_dic_are_not_answered_with_a_surviving_spouses_amounts():
    spouse = [("DIC for a surviving spouse, each month:", LEAD), ("- Basic monthly rate — $1,699.36", OFF)]
    parents = [("Parents' DIC is an income-based monthly payment for the parents of a veteran who died.", NEAR)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="DIC rates for a surviving spouse",
                          url="https://www.va.gov/1", content="\n".join(t for t, _ in spouse), score=0.8),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="Parents' DIC", url="https://www.va.gov/2",
                          content=parents[0][0], score=0.7)]

    def answer(question: str) -> str:
        return extractive_generate(question=question, question_vector=QUESTION_VECTOR, chunks=chunks,
                                   units={1: spouse, 2: parents}, chunk_types={1: "rating_table"}).text

    assert answer("our son was killed in action, how much is parents dic per month").startswith("Parents' DIC")
    assert answer("my husband died, how much is dic per month").startswith("DIC for a surviving spouse")
    # A DIC page that never speaks of parents (the 8-year provision) does not lead for them either.
    eight = [("The 8-year provision adds money to a surviving spouse's basic DIC rate.", ON_TOPIC)]
    provision = replace(chunk(3, 3, 0.9, eight[0][0]), title="DIC 8-year provision")
    assert answer_from("how much is parents dic a month, our son died in afghanistan", [provision, chunks[1]],
                       {3: eight, 2: parents}).startswith("Parents' DIC")


def test_children_with_no_surviving_spouse_are_not_answered_with_a_spouses_amounts():
    spouse = [("DIC for a surviving spouse, each month:", LEAD), ("- Basic monthly rate — $1,699.36", OFF)]
    child = [("A surviving child can get DIC if the child is not married and is under 18.", NEAR)]
    chunks = [SourceChunk(number=1, chunk_id=1, entry_id="e1", title="DIC rates for a surviving spouse",
                          url="https://www.va.gov/1", content="\n".join(t for t, _ in spouse), score=0.8),
              SourceChunk(number=2, chunk_id=2, entry_id="e2", title="DIC for a surviving child", url="https://www.va.gov/2",
                          content=child[0][0], score=0.7)]
    text = extractive_generate(question="his wife died before him so its just his 2 kids, how much DIC do the kids get",
                               question_vector=QUESTION_VECTOR, chunks=chunks, units={1: spouse, 2: child},
                               chunk_types={1: "rating_table"}).text
    assert text.startswith("A surviving child can get DIC"), text


HIP = [
    ("DC 5252 rates how far the hip can bend:", LEAD),
    ("10% — flexion limited to 45 degrees", OFF),
    ("20% — flexion limited to 30 degrees", OFF),
    ("30% — flexion limited to 20 degrees", OFF),
]
STRAIGHTEN = [
    ("DC 5261 rates how far short of straight the knee stops:", LEAD),
    ("10% — extension limited to 10 degrees", OFF),
    ("20% — extension limited to 15 degrees", OFF),
    ("30% — extension limited to 20 degrees", OFF),
]


def test_a_motion_limited_to_a_number_of_degrees_is_met_as_the_motion_reads():
    # Flexion: as far as the joint goes, so 40 degrees meets "limited to 45" and no lower row.
    assert table_answer("my hip only flexes to 40 degrees, what's the rating", HIP).startswith("- 10% — flexion")
    # 25 degrees meets "limited to 45" and "limited to 30": the higher level.
    assert table_answer("my hip flexes to 25 degrees, what rating", HIP).startswith("- 20% — flexion")
    # Farther than every row: no row leads.
    assert table_answer("my hip bends to 90 degrees, what rating", HIP).startswith("DC 5252")
    # Extension: how far short of straight, so 15 degrees short meets the 10 and 15 rows, the higher rating it.
    assert table_answer("my knee stops 15 degrees short of straight, what rating", STRAIGHTEN).startswith(
        "- 20% — extension limited to 15 degrees")


NECK = [
    ("Cervical spine levels of the General Rating Formula for the Spine:", LEAD),
    ("10% — forward flexion over 30 and up to 40 degrees, or combined motion over 170 and up to 335 degrees", OFF),
    ("20% — forward flexion greater than 15 but not greater than 30 degrees; or combined motion of 170 degrees or less",
     OFF),
    ("30% — forward flexion of 15 degrees or less, or favorable ankylosis of the entire cervical spine", OFF),
]
EPISODES = [
    ("Incapacitating-episode levels, by total duration during the past 12 months:", LEAD),
    ("20% — at least 2 weeks but less than 4 weeks", OFF),
    ("40% — at least 4 weeks but less than 6 weeks", OFF),
    ("60% — at least 6 weeks", OFF),
]
KNEE = [
    ("DC 5260 rates how far the knee can bend.", LEAD),
    ("0% — flexion limited to 60 degrees", OFF),
    ("10% — flexion limited to 45 degrees", OFF),
    ("20% — flexion limited to 30 degrees", OFF),
]


def test_a_measurement_meets_a_rows_range_as_the_row_bounds_it():
    # An end the row excludes ("greater than 30", "less than 6 weeks") is not inside it; an open end is a range too.
    assert table_answer("my neck only bends forward 30 degrees, what %", NECK).startswith(
        "- 20% — forward flexion greater than 15")
    assert table_answer("neck bends forward 10 degrees", NECK).startswith("- 30% — forward flexion of 15 degrees or less")
    assert table_answer("neck flexion is 35 degrees", NECK).startswith("- 10% — forward flexion over 30 and up to 40")
    assert table_answer("bed rest about 6 weeks last year for my disc, what rating", EPISODES).startswith(
        "- 60% — at least 6 weeks")
    assert table_answer("bed rest 5 weeks last year", EPISODES).startswith("- 40% — at least 4 weeks")
    # The combined motion is the sum of six: one motion is not compared with it, a combined one is.
    assert table_answer("my neck bends forward 50 degrees, what rating", NECK).startswith("Cervical spine levels")
    assert table_answer("neck combined range of motion is 200 degrees", NECK).startswith(
        "- 10% — forward flexion over 30")
    # A unit every row writes names none of them; the number a row states does.
    assert table_answer("i can only bend my knee to 45 degrees, what is the rating", KNEE).startswith(
        "- 10% — flexion limited to 45 degrees")
    # "When does the 100% stop and what do I drop down to": the rows below the level named come too.
    replacement = [("DC 5055 knee replacement in 38 CFR 4.71a:", LEAD), ("100% — for 4 months after implantation", OFF),
                   ("60% — chronic residuals of severe painful motion", OFF), ("30% — minimum rating", OFF)]
    text = table_answer("6 months since my knee replacement, when does the 100% stop and what do I drop down to",
                        replacement)
    assert "- 60% — chronic residuals" in text and "- 30% — minimum rating" in text, text
    # A table longer than the answer holds keeps the rows of the figures the question names.
    pay = [("Monthly pay for a veteran alone:", LEAD), *((f"{n}% — ${n * 30}.00", OFF) for n in range(10, 101, 10))]
    text = table_answer("I'm rated 90% and want to know how much more a month I'd get if I hit 100", pay)
    assert "- 90% — $2700.00" in text and "- 100% — $3000.00" in text and "- 80%" not in text, text
    # A percent the word "rating" follows is the level asked, though a test is named before it.
    from verification.generators.extractive import levels_asked
    assert levels_asked("what FEV-1 do i need for 30% asthma rating") == frozenset({30})
    assert not table_answer("what fev1 do i need for a 30% copd rating", COPD).startswith("- 100%")


def test_a_glossary_entry_for_the_term_asked_leads_a_what_is_question():
    examples = replace(chunk(1, 1, 0.62), title="What is and isn't clear and unmistakable error")
    entry = replace(chunk(2, 2, 0.57), title="Clear and unmistakable error (CUE): definition")
    other = replace(chunk(3, 3, 0.57), title="New and relevant evidence: definition")
    units = {1: [("Examples that may be CUE: VA applied the wrong rating criteria.", ON_TOPIC)],
             2: [("Clear and unmistakable error is an undebatable error in a final VA decision.", ON_TOPIC)],
             3: [("New and relevant evidence is what a Supplemental Claim requires.", ON_TOPIC)]}
    text = answer_from("what is clear and unmistakable error and how do i claim it", [examples, entry], units)
    assert text.startswith("Clear and unmistakable error is"), text
    # Only the entry for a term the question writes in full: "what does it mean" names no evidence term.
    from verification.generators.extractive import _defines_asked
    from verification.layers.citations import content_words
    assert _defines_asked(entry.title, content_words("what is clear and unmistakable error and how do i claim it"))
    assert not _defines_asked(other.title, content_words("what does it mean when my claim is in gathering evidence"))


def test_the_sentence_naming_the_askers_own_level_answers_what_applies_to_them():
    units = {1: [("Priority groups 7 and 8 are for veterans who do not qualify for a higher group.", ON_TOPIC)],
             2: [("Priority group 1 includes veterans rated 50% or more.", NEAR),
                 ("Priority group 2 includes veterans with a rating of 30% or 40%.", NEAR)]}
    text = generate("I'm 40% service connected. what priority group am I in", units, {1: 0.79, 2: 0.75}).text
    assert text.startswith("Priority group 2 includes"), text
    # Without a level of the asker's own, the closer source answers.
    text = generate("what priority group am I in", units, {1: 0.79, 2: 0.75}).text
    assert text.startswith("Priority groups 7 and 8"), text


def test_a_yes_or_no_is_answered_by_the_sentence_not_by_a_table_of_rates():
    fees = [("The funding fee is a one-time charge on most home purchases.", NEAR),
            ("For purchase loans, the fee is a percentage of the loan amount:", NEAR),
            ("- First use, less than 5% down — 2.15%", OFF),
            ("- After first use, less than 5% down — 3.3%", OFF),
            ("- First use, 10% or more down — 1.25%", OFF),
            ("Veterans receiving VA disability compensation are exempt from the funding fee.", QUESTION_VECTOR)]
    text = generate("Im rated 10% for my knee - do I still have to pay the VA loan funding fee?", {1: fees}, {1: 0.7}).text
    assert text.startswith("Veterans receiving VA disability compensation are exempt"), text
    text = generate("im rated 40% do i have to pay the va funding fee", {1: fees}, {1: 0.7}).text
    assert text.startswith("Veterans receiving VA disability compensation are exempt"), text
    text = generate("im 10% disabled do i have to pay the va funding fee", {1: fees}, {1: 0.7}).text
    assert text.startswith("Veterans receiving VA disability compensation are exempt"), text
    assert text.index("For purchase loans") < text.index("2.15%") < text.index("3.3%")
    # The lay terms appended to the question ("what a 0% noncompensable rating means") ask for no level.
    asked = "I'm rated 0% for hemorrhoids, do I still have to pay the VA loan funding fee?"
    text = extractive_generate(question=f"{asked} what a 0% noncompensable rating means", asked=asked,
                               question_vector=QUESTION_VECTOR, chunks=[chunk(1, 1, 0.7)], units={1: fees}).text
    assert text.startswith("Veterans receiving VA disability compensation are exempt"), text
    # An example illustrates the rule; it does not lead it.
    units = {1: [("Neurologic signs of a spine condition are rated separately under their own codes.", NEAR),
                 ("Common examples are sciatica in a leg, rated separately under DC 8520.", ON_TOPIC),
                 ("- 10% — mild incomplete paralysis", OFF),
                 ("- 20% — moderate incomplete paralysis", OFF),
                 ("- 40% — moderately severe incomplete paralysis", OFF)]}
    text = generate("does my sciatica get rated separately from my back?", units, {1: 0.7}).text
    assert text.startswith("Neurologic signs"), text


def test_the_table_of_what_the_asker_is_rated_for_is_not_borrowed_for_a_benefits_percentages():
    knee = [("DC 5055 knee replacement in 38 CFR 4.71a:", LEAD), ("100% — for 4 months after the prosthesis", OFF),
            ("60% — chronic residuals of severe painful motion", OFF), ("30% — minimum rating", OFF)]
    tdiu = [("TDIU needs one disability at 60%, or one at 40% and a combined 70%.", ON_TOPIC)]
    chunks = [replace(chunk(1, 1, 0.5), title="TDIU rating requirements"),
              replace(chunk(2, 2, 0.44), title="Knee replacement rating, DC 5055", diagnostic_code="5055")]

    def answer(question: str) -> str:
        return answer_from(question, chunks, {1: tdiu, 2: knee}, chunk_types={2: "rating_table"})

    text = answer("What are the percentages you need for TDIU? I'm 60 for my back and 20 for knees")
    assert text.startswith("TDIU needs") and "5055" not in text, text
    # Asked for the knee's levels, its table is read.
    assert "60% — chronic residuals" in answer("what are the rating percentages for a knee replacement")


def test_a_page_on_a_presumption_alone_answers_a_question_on_a_benefit():
    # "Died of bladder cancer in 2019, VA denied my DIC, it wasn't on the list": the page on the list's additions.
    dic = [("For DIC, the veteran must have died from a service-connected illness.", NEAR)]
    added = [("Bladder cancer was added to the Agent Orange presumptive conditions in 2021.", ON_TOPIC)]
    bwn = [("Blue Water Navy veterans denied before 2020 may be eligible again.", NEAR)]
    chunks = [replace(chunk(1, 1, 0.54), title="Bladder cancer added to the Agent Orange list",
                      benefits=frozenset({"agent_orange", "pact_act"})),
              replace(chunk(2, 2, 0.53), title="DIC: what must be true", benefits=frozenset({"dic"})),
              replace(chunk(3, 3, 0.48), title="Blue Water Navy denials", benefits=frozenset({"blue_water_navy"}))]
    text = answer_from("my husband died of bladder cancer, VA denied my DIC, it wasnt on the list", chunks,
                       {1: added, 2: dic, 3: bwn}, benefits=frozenset({"dic"}))
    assert text.startswith("Bladder cancer was added"), text
    assert "Blue Water Navy" not in text, text

def test_another_sources_table_lead_without_its_rows_or_codes_is_not_borrowed():
    # "I'm 60% with a wife and 2 kids, how much a month": the pension's "Maximum Annual Pension Rates ... :" came
    # after the compensation answer, a heading with nothing under it. (One naming codes still says something:
    # "General Rating Formula ... DC 9201 to 9440" answers "is schizophrenia rated like PTSD", golden g317.)
    units = {1: [("VA pays a veteran rated 60 percent more with a spouse and children.", QUESTION_VECTOR)],
             2: [("Maximum Annual Pension Rates for veterans in effect December 1, 2023:", NEAR),
                 ("100% — $16,551 a year", NEAR)]}
    text = generate("how much do i get with a wife and 2 kids", units, {1: 0.8, 2: 0.7}).text
    assert text == "VA pays a veteran rated 60 percent more with a spouse and children [1].", text


HYPERTENSION = [
    ("DC 7101 hypertension is rated on readings predominantly at the stated level:", LEAD),
    ("10% — diastolic pressure predominantly 100 or more, or systolic pressure predominantly 160 or more", OFF),
    ("20% — diastolic predominantly 110 or more, or systolic predominantly 200 or more", OFF),
    ("40% — diastolic predominantly 120 or more", OFF),
    ("60% — diastolic predominantly 130 or more", OFF),
]


def test_a_blood_pressure_leads_with_the_highest_threshold_it_meets():
    # "Diastolic 110" meets both the 10% row's "100 or more" and the 20% row's "110 or more": it rates 20%.
    assert table_answer("my blood pressure diastolic is 110 what rating", HYPERTENSION).startswith(
        "- 20% — diastolic predominantly 110")
    assert table_answer("my bp runs about 170 over 105 on meds, what rating", HYPERTENSION).startswith(
        "- 10% — diastolic pressure predominantly 100")
    assert table_answer("systolic 210, what percent is hypertension", HYPERTENSION).startswith("- 20% —")
    assert table_answer("diastolic readings around 125", HYPERTENSION).startswith("- 40% —")
    # Several readings: the row every diastolic reading meets (112 and 114 are both 110 or more).
    assert table_answer("my bp has mostly been like 150/112, 160/114 even w/ meds, what rating for hypertension",
                        HYPERTENSION).startswith("- 20% — diastolic predominantly 110")
    # Below every threshold, or a bare pair in no question about blood pressure: the table keeps its order.
    assert table_answer("my bp is 130/85, what rating", HYPERTENSION).startswith("DC 7101")
    assert table_answer("I was rated 10/20 for something, what rating", HYPERTENSION).startswith("DC 7101")


def test_a_limit_taken_for_granted_is_not_answered_by_another_things_having_none():
    # "How long do I have to submit the claim before my intent to file runs out" led with "There is no deadline
    # to file a Supplemental Claim"; the intent to file's "good for one year" is the limit asked.
    none = [("There is no deadline to file a Supplemental Claim (VA Form 20-0995); you can file whenever you have new "
             "evidence.", ON_TOPIC)]
    limit = [("An intent to file is good for one year from the date VA receives it.", NEAR)]
    units, scores = {1: none, 2: limit}, {1: 0.7, 2: 0.68}
    answer = generate("how long do i have to submit the full claim before my intent to file runs out", units, scores)
    assert answer.text.startswith("An intent to file is good for one year")
    # Asked whether there is a limit at all, having none is the answer.
    assert generate("is there a deadline to file a supplemental claim", units, scores).text.startswith("There is no deadline")
    # A limit taken for granted of the thing asked about, which has none, is answered by its "no deadline": "how
    # long after I get out can I file a claim", not the year to send evidence after filing.
    none = [("There is no deadline to file a VA disability compensation claim.", ON_TOPIC)]
    evidence = [("After you file, you have up to one year from the date VA receives the claim to send evidence.", NEAR)]
    # (As the pipeline passes it: the lay terms append the page's words.)
    question = "how long after i get out can i file a claim for my back no deadline to file a disability claim"
    answer = generate(question, {1: evidence, 2: none}, {1: 0.7, 2: 0.68})
    assert answer.text.startswith("There is no deadline to file")


def test_a_form_question_reads_the_first_close_source_naming_a_form():
    # "Knee is rated 10 and it's worse, how do I ask for a higher rating, which form": the three closest sources
    # are the knee's pages, which name no form; the increase's page, fourth, names 21-526EZ and answers.
    knee = {n: [(f"Each knee problem can get its own rating, note {n}.", ON_TOPIC)] for n in (1, 2, 3)}
    increase = "If a condition has gotten worse, file a claim for an increased rating on VA Form 21-526EZ."
    chunks = [chunk(1, 1, 0.53), chunk(2, 2, 0.52), chunk(3, 3, 0.52), chunk(4, 4, 0.50, increase)]
    result = extractive_generate(question="knee is rated 10 and its worse now, which form do i use to ask for more",
                                 question_vector=QUESTION_VECTOR, chunks=chunks,
                                 units={**knee, 4: [(increase, NEAR)]})
    assert result.text.startswith("If a condition has gotten worse") and "21-526EZ" in result.text


def test_the_sentence_whose_threshold_the_askers_level_meets_answers_for_them():
    # "I'm rated 60% combined, what priority group": group 1's "rated 50% or more" is the asker's, not groups 7
    # and 8, closer in words.
    low = [("Priority group 8 is for veterans whose income is above both limits and who pay copays.", ON_TOPIC)]
    high = [("Priority group 1 includes veterans with a service-connected disability rated 50% or more.", NEAR)]
    units, scores = {1: low, 2: high}, {1: 0.7, 2: 0.68}
    answer = generate("im rated 60% combined, what priority group does that put me in", units, scores).text
    assert answer.startswith("Priority group 1 includes")
    # A level below the threshold meets nothing there.
    assert generate("im rated 20% combined, what priority group does that put me in", units, scores).text.startswith(
        "Priority group 8")


def test_what_the_askers_other_ratings_add_up_to_is_their_own_figure_not_a_level_asked():
    # "I'm 100% for PTSD and my other conditions add up to 60%, anything extra": SMC-S answers; the 60% is the
    # asker's, so no table of levels is brought in beside it.
    smc = [("SMC-S, the housebound rate, is paid for a single disability rated 100% plus others ratable at 60% or more.",
            ON_TOPIC), ("SMC-S pays a fixed amount above the 100% rate.", ON_TOPIC)]
    sixty = [*PTSD_TABLE[:3], ("60% — reduced reliability in most areas", OFF), *PTSD_TABLE[3:]]
    answer = generate("I'm 100% for PTSD and my other conditions add up to 60%. Is there anything extra I get?",
                      {1: smc, 2: sixty}, {1: 0.7, 2: 0.69}, {2: "rating_table"}).text
    assert answer.startswith("SMC-S, the housebound rate") and "60% —" not in answer


def test_after_the_board_decided_requesting_a_board_appeal_is_not_the_next_step():
    # "The Board denied my appeal, how long do I have to take it to the court": the Court's 120 days, not the
    # Board Appeal's own request (within one year, on VA Form 10182), which tied with it.
    board = [("A Board Appeal sends your case to a judge; you request it with VA Form 10182 within one year.", ON_TOPIC)]
    court = [("You must file a Notice of Appeal with the Court within 120 days from the date on the Board decision.",
              ON_TOPIC)]
    units, scores = {1: board, 2: [(court[0][0], NEAR)]}, {1: 0.73, 2: 0.7}
    answer = generate("the board denied my appeal. how long do i have to take it to the court?", units, scores).text
    assert answer.startswith("You must file a Notice of Appeal")


def test_a_page_the_lay_terms_name_is_read_wherever_it_ranks():
    # "The BVA denied me, what are my options now": the lay terms add the page's own name ("options after a Board
    # decision"); that page ranked fourth, below three on the Board in general, and answers.
    texts = {n: f"A Board decision on options for appeals is final, note {n}." for n in (1, 2, 3)}
    general = {n: [(text, NEAR)] for n, text in texts.items()}
    after = "If you disagree with a Board decision, you can file a Supplemental Claim or appeal to the Court."
    chunks = [chunk(1, 1, 0.58, texts[1]), chunk(2, 2, 0.57, texts[2]), chunk(3, 3, 0.57, texts[3]), chunk(4, 4, 0.55)]
    chunks[3] = SourceChunk(number=4, chunk_id=4, entry_id="after-board", title="Options after a Board decision",
                            url="https://www.va.gov/decision-reviews/", content=after, score=0.55)
    asked = "the BVA denied me in march, what are my options now"
    result = extractive_generate(question=f"{asked} options after a Board decision", asked=asked,
                                 question_vector=QUESTION_VECTOR, chunks=chunks, units={**general, 4: [(after, ON_TOPIC)]})
    assert result.text.startswith("If you disagree with a Board decision")


HEART = [
    ("DC 7005 coronary artery disease is rated on METs and heart function:", LEAD),
    ("10% — symptoms at more than 7 but not more than 10 METs, or continuous medication required", OFF),
    ("30% — symptoms at more than 5 but not more than 7 METs, or cardiac hypertrophy", OFF),
    ("60% — symptoms at more than 3 but not more than 5 METs, or ejection fraction of 30 to 50 percent", OFF),
    ("100% — chronic congestive heart failure, or symptoms at 3 METs or less, or ejection fraction below 30 percent", OFF),
]


def test_a_workload_in_mets_or_an_ejection_fraction_names_its_row():
    assert table_answer("short of breath at 6 METs on my stress test, what rating for my CAD", HEART).startswith(
        "- 30% — symptoms at more than 5")
    assert table_answer("my ejection fraction is 40 percent, what rating", HEART).startswith("- 60% —")
    assert table_answer("tired at 3 mets, what % is that", HEART).startswith("- 100% —")
    # A percent that is no named measurement stays a rating: "I believe I'm 30 percent" names no row.
    assert table_answer("my belief is that 40 percent is right for my heart, what rating", HEART).startswith("DC 7005")


def test_a_status_told_in_its_own_sentence_still_asks_whether_it_is_enough():
    # "im only rated 10%. can I still use voc rehab to go back to school": who qualifies is asked even with the
    # status ending its own sentence; the rules' source, ranked fourth, is read.
    others = {n: [(f"VR&E can pay for college under the long-term track, note {n}.", ON_TOPIC)] for n in (1, 2, 3)}
    rules = [("You may be eligible for VR&E with a service-connected disability rating of at least 10%.", NEAR)]
    units, scores = {**others, 4: rules}, {1: 0.72, 2: 0.71, 3: 0.7, 4: 0.66}
    answer = generate("im only rated 10%. can I still use voc rehab to go back to school?", units, scores,
                      {4: "eligibility"}).text
    assert "at least 10% [4]" in answer


def test_the_askers_level_written_in_words_is_theirs_too():
    # "im rated 40 percent, what priority group": the level written "percent" counts as the one written "%".
    general = [("When a veteran enrolls, VA assigns one of 8 priority groups.", ON_TOPIC)]
    group_2 = [("Priority group 2 includes veterans with a service-connected disability rating of 30% or 40%.", NEAR)]
    units, scores = {1: general, 2: group_2}, {1: 0.7, 2: 0.68}
    for level in ("40%", "40 percent"):
        answer = generate(f"im rated {level}. what priority group am i in for VA health care", units, scores).text
        assert answer.startswith("Priority group 2"), level


@pytest.mark.parametrize(("question", "days"), [
    ("im active duty with about 5 months till I get out, can I file now", 150),
    ("getting out in 45 days, can i still do BDD", 45),
    ("separating within two weeks, what should I file", 14),
    ("I got out 5 months ago, can I still file", None),
    ("how long does a claim take, mine has been pending 5 months", None),
])
def test_the_days_left_before_separation_are_read_from_the_question(question, days):
    from verification.generators.extractive import _days_left
    assert _days_left(question) == days


def test_a_rating_just_given_is_the_askers_own_and_the_exemption_leads_the_whole_fee_table():
    # "I just got rated 10% for tinnitus ... do I still have to pay the funding fee": the sentence opening the page
    # scored close to the exemption and kept it last; the penalised table lead was dropped, leaving bare rows.
    fees = [("The funding fee is a one-time charge paid to VA on most VA-backed loans.", NEAR),
            ("For purchase loans, the fee is a percentage of the loan amount:", NEAR),
            ("- First use, less than 5% down — 2.15%", OFF),
            ("- After first use, less than 5% down — 3.3%", OFF),
            ("- First use, 10% or more down — 1.25%", OFF),
            ("Veterans receiving VA disability compensation are exempt from the funding fee.", QUESTION_VECTOR)]
    text = generate("I just got rated 10% for tinnitus. I'm buying a house next month with a VA loan. Do I still have "
                    "to pay the funding fee??", {1: fees}, {1: 0.7}).text
    assert text.startswith("Veterans receiving VA disability compensation are exempt"), text
    assert text.index("For purchase loans") < text.index("2.15%") < text.index("3.3%"), text


def test_a_purchase_question_reads_the_purchase_fees_and_a_refinance_question_the_others():
    purchase = [("For purchase loans the funding fee is:", LEAD), ("- First use, less than 5% down — 2.15%", OFF),
                ("- After first use, less than 5% down — 3.3%", OFF)]
    other = [("Funding fees for loans other than purchase loans:", LEAD), ("- Cash-out refinance, first use — 2.15%", OFF),
             ("- Interest Rate Reduction Refinancing Loan (IRRRL) — 0.5%", OFF)]
    chunks = [replace(chunk(1, 1, 0.68), title="VA funding fee for cash-out refinance, IRRRL, assumptions, and other loans"),
              replace(chunk(2, 2, 0.66), title="VA funding fee rates for purchase and construction loans")]
    types = {1: "rating_table", 2: "rating_table"}
    text = answer_from("Buying again now with zero down, what % funding fee will I pay", chunks, {1: other, 2: purchase},
                       chunk_types=types)
    assert text.startswith("For purchase loans"), text
    assert "Cash-out" not in text, text
    text = answer_from("what funding fee will I pay on a cash-out refinance", chunks, {1: other, 2: purchase},
                       chunk_types=types)
    assert text.startswith("Funding fees for loans other than purchase"), text


def test_the_branch_of_an_age_rule_that_fits_the_askers_age_leads():
    remarriage = [("A surviving spouse who remarries before age 55 loses CHAMPVA, but may regain it later.", ON_TOPIC),
                  ("A child stays eligible until age 18, or 23 if a full-time student.", NEAR),
                  ("A surviving spouse who remarries at age 55 or older can keep CHAMPVA.", NEAR)]
    asked = "Widow here, I'm 58 and thinking of marrying my boyfriend. Would I lose CHAMPVA if we marry?"
    assert generate(asked, {1: remarriage}, {1: 0.7}).text.startswith("A surviving spouse who remarries at age 55 or older")
    # The branch for the younger asker already opens; a rating is no age; nor is a question without a yes or no.
    younger = "I'm 50 and want to remarry, would I lose CHAMPVA?"
    assert generate(younger, {1: remarriage}, {1: 0.7}).text.startswith("A surviving spouse who remarries before age 55")
    rated = "I'm 60 for my back, would my wife lose CHAMPVA if she remarries?"
    assert generate(rated, {1: remarriage}, {1: 0.7}).text.startswith("A surviving spouse who remarries before age 55")
    # The age the remarriage happens at is the age the rule turns on.
    at_56 = "widow here, husband died of service connected heart disease. if I remarry at 56 do I lose champva?"
    assert generate(at_56, {1: remarriage}, {1: 0.7}).text.startswith("A surviving spouse who remarries at age 55 or older")


def test_a_closed_benefit_is_answered_by_the_page_on_the_one_that_replaced_it():
    # "My VSO mentioned S-DVI, how do I apply": VALife's page (S-DVI closed, VALife replaced it) answers, not the
    # claim form's page, however close in meaning.
    valife = [("VALife is guaranteed whole life insurance for veterans with any service-connected rating.", NEAR),
              ("VALife replaced Service-Disabled Veterans Insurance (S-DVI), which closed to new applications.", NEAR)]
    claim = [("A disability claim is filed on VA Form 21-526EZ.", ON_TOPIC)]
    chunks = [benefit_page(1, "How to file a VA disability compensation claim", 0.64, "disability_compensation"),
              replace(chunk(2, 2, 0.51), title="Veterans Affairs Life Insurance (VALife): guaranteed whole life",
                      benefits=frozenset({"valife", "sdvi"}))]
    text = answer_from("my VSO mentioned S-DVI insurance. how do I apply for that?", chunks, {1: claim, 2: valife},
                       benefits=frozenset({"sdvi"}))
    assert text.startswith("VALife"), text
    assert "21-526EZ" not in text, text


def test_the_kind_of_claim_asked_about_leads_over_the_pages_on_the_condition():
    # "VA says my knee is 10% sc ... what do I need to prove it's secondary": the knee's ratings page opened the
    # answer, and "10% sc" read as a level asked about.
    knee = [("Limitation of flexion and limitation of extension of the same knee may be rated separately.", NEAR),
            ("One knee can receive more than one rating when each covers a different problem.", NEAR)]
    secondary = [("Secondary service connection covers a disability caused by a service-connected condition.", NEAR),
                 ("The key evidence is a diagnosis of the new condition and a medical opinion linking the two.", NEAR)]
    chunks = [replace(chunk(1, 1, 0.5), title="Can one knee get more than one rating?"),
              replace(chunk(2, 2, 0.46), title="Secondary service connection (38 CFR 3.310)")]
    asked = ("VA says my knee is 10% sc. my other knee and hip started hurting from limping for years. what do i need "
             "to prove it's secondary")
    text = answer_from(asked, chunks, {1: knee, 2: secondary})
    assert text.startswith("Secondary service connection covers"), text
    # Asked about the knee's ratings, the knee's page still answers.
    text = answer_from("can one knee get two ratings for flexion and extension", chunks, {1: knee, 2: secondary})
    assert text.startswith("Limitation of flexion"), text


def test_the_review_asked_about_leads_over_the_evidence_named_in_the_story():
    # "Can I send new evidence with a Higher-Level Review? I got a nexus letter": the nexus letter's page opened.
    nexus = [("A strong nexus letter shows the doctor reviewed the records and explains the reasoning.", ON_TOPIC)]
    hlr = [("You cannot submit new evidence in a Higher-Level Review.", NEAR)]
    chunks = [replace(chunk(1, 1, 0.58), title="Nexus letter: definition"),
              replace(chunk(2, 2, 0.56), title="Higher-Level Review (VA Form 20-0996)")]
    text = answer_from("can i send in new evidence with a higher level review? i got a nexus letter from my doctor",
                       chunks, {1: nexus, 2: hlr})
    assert text.startswith("You cannot submit new evidence in a Higher-Level Review"), text


def test_a_dollar_amount_the_sources_lack_is_not_answered_with_the_rules_beside_it():
    dea = [("DEA pays a monthly amount directly to the student, and rates change each October 1.", ON_TOPIC),
           ("Children usually must be 18 to 26 to use DEA.", NEAR)]
    assert generate("how much does chapter 35 DEA pay per month for full time college", {1: dea}, {1: 0.7}).text == ""
    assert generate("whats the 2025 county loan limit for San Diego county", {1: dea}, {1: 0.7}).text == ""
    assert generate("whats the exact dollar poverty threshold this year for DEA", {1: dea}, {1: 0.7}).text == ""
    # A dollar figure of something else is no amount of what is asked: "pay reduced by $100 a month" is not the
    # monthly rate, nor "$1,000 for books" some way after "housing allowance".
    mgib = [("You qualify if your military pay was reduced by $100 a month for your first 12 months.", ON_TOPIC),
            ("It pays a monthly housing allowance when enrolled more than half time, and up to $1,000 a year for "
             "books.", NEAR)]
    assert generate("what is the current full time monthly rate for the montgomery gi bill", {1: mgib}, {1: 0.7}).text == ""
    assert generate("how much is the gi bill housing allowance, exact dollar amount", {1: mgib}, {1: 0.7}).text == ""
    # With the figure in the sources, it is answered; without a dollar amount asked, the rules answer.
    rates = [("DIC pays a surviving spouse $1,699.36 a month.", ON_TOPIC), *dea]
    assert generate("how much is DIC per month", {1: rates}, {1: 0.7}).text.startswith("DIC pays a surviving spouse $1,699.36")
    assert generate("how does DEA pay, to me or the school", {1: dea}, {1: 0.7}).text.startswith("DEA pays a monthly")
    # A count the question also asks is answered without the amount ("36 months"), and so is how the amount is
    # figured, unless an exact dollar figure is demanded.
    months = [*dea, ("A child can get up to 36 months of DEA.", NEAR)]
    assert "36 months" in generate("how many months of DEA does my son get and how much does it pay a month",
                                   {1: months}, {1: 0.7}).text
    online = [("If all your classes are online, the monthly housing allowance is half of the national average BAH for an "
               "E-5 with dependents.", ON_TOPIC)]
    assert generate("how much is the housing allowance if all my classes are online", {1: online}, {1: 0.7}).text \
        .startswith("If all your classes are online")
    assert generate("how much is the housing allowance online, exact dollar amount", {1: online}, {1: 0.7}).text == ""
    # The amount a sentence of the leading source gives is said, though other sentences scored higher.
    dea_rate = [*dea, ("The full-time DEA rate is $1,536 a month.", NEAR)]
    assert "$1,536" in generate("how much does DEA pay per month", {1: dea_rate}, {1: 0.7}).text


def test_a_length_of_service_picks_its_tier_in_any_unit_of_time():
    tiers = [("Your Post-9/11 GI Bill percentage depends on your active-duty service after September 10, 2001:", LEAD),
             ("- 100% — at least 36 months of active duty, or a Purple Heart with an honorable discharge", OFF),
             ("- 90% — at least 30 months but less than 36 months", OFF),
             ("- 80% — at least 24 months but less than 30 months", OFF),
             ("- 70% — at least 18 months but less than 24 months", OFF)]
    types = {1: "rating_table"}
    # "2 yrs 4 months" is 28 months (it read "4 months" alone, and "honorable" named the 100% row).
    text = generate("active army 2 yrs 4 months total, honorable. what percentage of the post 9/11 gi bill do i get",
                    {1: tiers}, {1: 0.7}, types).text
    assert text.startswith("- 80% — at least 24 months"), text
    text = generate("what percent of the post 9/11 gi bill do i get if i served 2 years", {1: tiers}, {1: 0.7}, types).text
    assert text.startswith("- 80% — at least 24 months"), text


def test_the_amount_asked_for_leads_when_it_is_the_only_one():
    groups = [("Priority group 8 is for veterans whose income is above both limits.", ON_TOPIC),
              ("Veterans in groups 7 and 8 generally pay copays for non-service-connected care.", NEAR)]
    copays = [("VA's outpatient copay is $50 for a specialty care visit.", vec(1, 0, 0, 0.5))]
    text = generate("how much is the copay for seeing a specialist? they put me in priority group 8",
                    {1: groups, 2: copays}, {1: 0.7, 2: 0.66}).text
    assert text.startswith("VA's outpatient copay is $50"), text
    # An amount for something else does not lead: the outpatient copay is not "the daily copay at a nursing home".
    text = generate("how much is the daily copay at a VA nursing home? they put me in priority group 8",
                    {1: groups, 2: copays}, {1: 0.7, 2: 0.66}).text
    assert text.startswith("Priority group 8"), text


def test_two_kinds_of_review_asked_together_weigh_no_page_titled_with_one():
    # "Can I file a Higher-Level Review AND a Supplemental Claim at the same time": the one-lane rule answers.
    hlr = [("You can request a Higher-Level Review within one year of the decision.", NEAR)]
    lanes = [("You can pursue only one decision review option at a time for the same issue.", ON_TOPIC)]
    chunks = [replace(chunk(1, 1, 0.56), title="Higher-Level Review (VA Form 20-0996)"),
              replace(chunk(2, 2, 0.58), title="One review option at a time for each issue")]
    text = answer_from("can I file a higher level review AND a supplemental claim at the same time", chunks,
                       {1: hlr, 2: lanes})
    assert text.startswith("You can pursue only one decision review option"), text


@pytest.mark.parametrize(("question", "asked"), [
    ("rated 20% for my back - can I use voc rehab to go to school instead of burning my GI bill?", {"vre"}),
    ("Used all 36 months of my GI Bill on my bachelors. Can voc rehab pay for a masters", {"vre"}),
    ("Can voc rehab pay for a masters or am i out of luck since my GI Bill is gone", {"vre"}),
    ("can I use the GI Bill and voc rehab together", {"gi_bill", "vre"}),
])
def test_a_benefit_the_asker_has_spent_is_context_not_what_is_asked(question, asked):
    from verification.generators.extractive import benefits_asked
    assert {e.value for e in benefits_asked(question)} == asked


def test_a_page_whose_rule_is_for_those_who_served_on_the_other_side_of_a_date_is_anothers_case():
    combat = [("Veterans who served in a theater of combat operations after November 11, 1998 can enroll now with "
               "enhanced eligibility.", ON_TOPIC)]
    pact = [("Since March 5, 2024, veterans who served in the Gulf War can enroll now directly.", vec(1, 0, 0.2, 0))]
    chunks = [replace(chunk(1, 1, 0.53), title="Combat veterans' enhanced eligibility"),
              replace(chunk(2, 2, 0.52), title="PACT Act expansion of VA health care")]
    text = answer_from("Gulf war vet, was in saudi in 1991. they said my income was too high. can i enroll now?", chunks,
                       {1: combat, 2: pact})
    assert text.startswith("Since March 5, 2024"), text
    text = answer_from("I served in Iraq in 2005, can I enroll now?", chunks, {1: combat, 2: pact})
    assert text.startswith("Veterans who served in a theater of combat"), text


def test_the_rule_for_the_years_a_rating_was_held_leads():
    rules = [("A rating held at the same level for 5 years or more is considered stabilized.", ON_TOPIC),
             ("Service connection in effect for 10 or more years cannot be severed except for fraud.", NEAR),
             ("A rating held continuously for 20 or more years cannot be reduced below that level.", NEAR)]
    text = generate("ive been at 40% for my back for 22 years. can the VA ever lower it", {1: rules}, {1: 0.7}).text
    assert text.startswith("A rating held continuously for 20 or more years"), text
    text = generate("rated 30% for my knee for 7 years, can they reduce it", {1: rules}, {1: 0.7}).text
    assert text.startswith("A rating held at the same level for 5 years"), text


@pytest.mark.parametrize(("question", "lay_term", "code", "condition", "rule"), [
    # Harm from VA care: the 1151 claim, not the foot drop table (the lay terms add "1151" to the question).
    ("the VA surgeon nicked a nerve, now i got foot drop. can I get comp for that", " 1151", "8521",
     "DC 8521 paralysis of the common peroneal nerve (foot drop):",
     "An 1151 claim asks VA to pay compensation for a disability caused by VA medical care."),
    # A missed exam: the exam's rules, not hearing loss definitions.
    ("i missed my c&p exam because my mom was in the ICU. am I screwed on my hearing loss claim", "", "6100",
     "DC 6100 hearing loss is rated from Tables VI and VII:",
     "If you already missed the exam, contact VA right away and explain why."),
    # Whether an opinion is good enough for a nexus: its standard, not the sleep apnea table.
    ("my doc wrote my sleep apnea is 'possibly related' to the army. is that good enough for a nexus letter", "",
     "6847", "DC 6847 sleep apnea in 38 CFR 4.97:",
     "A nexus letter says whether the condition is at least as likely as not related to service."),
])
def test_a_claims_rule_asked_about_answers_not_the_conditions_table(question, lay_term, code, condition, rule):
    table = [(condition, LEAD), ("- 40% — the top level", OFF), ("- 10% — the lowest level", OFF)]
    chunks = [replace(chunk(1, 1, 0.6), title=f"Condition rating, DC {code}", diagnostic_code=code),
              replace(chunk(2, 2, 0.5), title="The rule")]
    text = answer_from(question + lay_term, chunks, {1: table, 2: [(rule, NEAR)]}, asked=question,
                       chunk_types={1: "rating_table"}, codes=(code,))
    assert text.startswith(rule.removesuffix(".")), text


def test_a_condition_whose_levels_no_source_holds_is_not_answered_with_ratings_in_general():
    general = [("Each condition gets its own rating under a diagnostic code in the rating schedule.", ON_TOPIC),
               ("Ratings go from 0% to 100% in steps of 10%.", NEAR)]
    chunks = [replace(chunk(1, 1, 0.5), title="What a VA disability rating is")]
    asked = "what's the VA rating table for an inguinal hernia? had mine repaired twice"
    assert answer_from(asked, chunks, {1: general}, codes=("7338",)) == ""
    # Without a condition named, the general page answers.
    assert answer_from("what is a VA disability rating", chunks, {1: general}).startswith("Each condition gets")


CHAMPVA_RULES = [("CHAMPVA shares the cost of health care for certain family members.", NEAR),
                 ("A spouse or child may qualify if the veteran is rated permanently and totally disabled.", NEAR),
                 ("Family members eligible for TRICARE generally cannot use CHAMPVA.", ON_TOPIC)]


def test_an_exception_to_who_qualifies_follows_the_rule_unless_who_cannot_is_asked():
    text = generate("my husband is 100% p&t, can me and the kids get champva", {1: CHAMPVA_RULES}, {1: 0.7}).text
    assert text.index("may qualify") < text.index("cannot use CHAMPVA"), text
    text = generate("who cannot use champva", {1: CHAMPVA_RULES}, {1: 0.7}).text
    assert text.startswith("Family members eligible for TRICARE"), text


def test_a_page_for_those_65_and_older_is_another_asker_s_unless_age_or_medicare_is_named():
    for_life = replace(chunk(1, 1, 0.53), title="CHAMPVA for Life (age 65 and older)")
    rules = replace(chunk(2, 2, 0.49), title="CHAMPVA: who qualifies")
    units = {1: [("CHAMPVA for Life extends CHAMPVA coverage to beneficiaries age 65 and older.", ON_TOPIC)],
             2: [("A spouse may qualify for CHAMPVA if the veteran is rated permanently and totally disabled.", NEAR)]}
    types = {1: "eligibility", 2: "eligibility"}
    text = answer_from("i have 70% and my wife doesnt have insurance can she get champva?", [for_life, rules], units,
                       chunk_types=types)
    assert text.startswith("A spouse may qualify"), text
    text = answer_from("my wife turns 65 and gets medicare, can she keep champva?", [for_life, rules], units,
                       chunk_types=types)
    assert text.startswith("CHAMPVA for Life extends"), text
    medicare = replace(chunk(1, 1, 0.6), title="CHAMPVA and Medicare (under age 65)")
    units[1] = [("A CHAMPVA beneficiary under 65 entitled to Medicare Part A must also enroll in Part B.", ON_TOPIC)]
    text = answer_from("my husband is 100% p&t. im 45 and have insurance thru my job, can i still get champva",
                       [medicare, rules], units, chunk_types=types)
    assert text.startswith("A spouse may qualify"), text


def test_a_veterans_pension_amounts_are_another_s_case_for_a_survivor_asking_the_pension():
    # "My mom is widow of a vet, whats the max annual pension rate for a surviving spouse with aid and attendance":
    # the veteran's MAPR table read as hers. With no survivor's amount in the sources, nothing is said.
    mapr = replace(chunk(1, 1, 0.66), title="Veterans Pension MAPR amounts for December 1, 2023 to November 30, 2024")
    who = replace(chunk(2, 2, 0.6), title="Survivors Pension: who qualifies")
    units = {1: [("Veteran with aid and attendance, no dependents — $27,609 a year", ON_TOPIC)],
             2: [("A surviving spouse of a wartime veteran may qualify for Survivors Pension.", NEAR)]}
    asked = "my mom is widow of a vet, whats the max annual pension rate for a surviving spouse with aid and attendance"
    assert "$27,609" not in answer_from(asked, [mapr, who], units)
    assert "$27,609" in answer_from("whats the max annual pension rate with aid and attendance for a veteran",
                                    [mapr, who], units)


def test_a_page_for_guard_and_reserve_members_is_another_s_case_unless_that_service_is_named():
    # "How do I get my certificate of eligibility, first time buyer" led with the Guard and Reserve page's "First, at
    # least 90 continuous days ..." (its "first" met the asker's "first time").
    guard = replace(chunk(1, 1, 0.61), title="VA home loan eligibility for National Guard and Reserve members")
    coe = replace(chunk(2, 2, 0.6), title="Home loan Certificate of Eligibility (COE): how to get it")
    units = {1: [("First, at least 90 continuous days of active service, the first time you are activated.", ON_TOPIC)],
             2: [("You can get your certificate of eligibility online on VA.gov or through your lender.", NEAR)]}
    assert answer_from("how do i get my certificate of eligibility for a va home loan, first time buyer", [guard, coe],
                       units).startswith("You can get your certificate")
    assert answer_from("i did 8 years in the army reserve, first time buyer, can i get a certificate of eligibility",
                       [guard, coe], units).startswith("First, at least 90")


def test_a_stage_is_no_measurement():
    # "CKD stage 4" led with renal dysfunction's 80% row ("creatinine 4 to 8 mg%").
    renal = [("Renal dysfunction in 38 CFR 4.115a is the scale for chronic kidney disease:", LEAD),
             ("30% — albumin constant or recurring, or transient or slight swelling", OFF),
             ("60% — constant albuminuria with some swelling, or a definite decrease in kidney function", OFF),
             ("80% — persistent swelling and albuminuria with BUN 40 to 80 mg%, or creatinine 4 to 8 mg%", OFF)]
    assert table_answer("whats the va rating for ckd stage 4", renal).startswith("Renal dysfunction")
    assert table_answer("my creatinine is 5, whats the va rating for my kidney disease", renal).startswith("- 80%")


def test_the_body_part_a_condition_sits_in_names_no_row():
    # "Bad wrist carpal tunnel both hands" led with complete paralysis ("weak wrist flexion").
    median = [("DC 8515 paralysis of the median nerve is the code used for carpal tunnel syndrome:", LEAD),
              ("10% / 10% — mild incomplete paralysis", OFF),
              ("30% / 20% — moderate incomplete paralysis", OFF),
              ("70% / 60% — complete paralysis: thumb flat, cannot make a fist, weak wrist flexion", OFF)]
    assert table_answer("rating for bad wrist carpal tunnel both hands", median).startswith("DC 8515")
    assert table_answer("carpal tunnel, my thumb lies flat now, what rating", median).startswith("- 70% / 60%")


def test_days_a_month_are_how_often_not_how_long():
    # "IBS with pain 3 days a month" led with the 30% row: "3 days" was read as a length meeting "at least 1 day".
    ibs = [("DC 7319 irritable bowel syndrome is rated on how often abdominal pain occurred over 3 months:", LEAD),
           ("10% — related abdominal pain at least once during the previous 3 months", OFF),
           ("20% — related abdominal pain at least 3 times a month during the previous 3 months", OFF),
           ("30% — related abdominal pain at least 1 day a week during the previous 3 months", OFF)]
    assert table_answer("ibs with pain 3 days a month what rating", ibs).startswith("- 20%")
    assert table_answer("ibs pain 2 days a week rating", ibs).startswith("- 30%")


def test_a_limit_stated_with_a_negation_is_still_a_measurement():
    hip = [("DC 5252 rates limitation of flexion of the thigh:", LEAD), ("10% — flexion limited to 45 degrees", OFF),
           ("20% — flexion limited to 30 degrees", OFF), ("40% — flexion limited to 10 degrees", OFF)]
    assert table_answer("my hip cant bend past 10 degrees rating", hip).startswith("- 40%")
    # "Half the time" names no row by its "time".
    cfs = [("DC 6354 chronic fatigue syndrome is rated on how much symptoms restrict daily activities:", LEAD),
           ("40% — restrict routine daily activities to 50 to 75 percent of the pre-illness level", OFF),
           ("100% — nearly constant, at times preventing self-care", OFF)]
    assert table_answer("chronic fatigue syndrome that stops me working half the time rating", cfs).startswith("DC 6354")
