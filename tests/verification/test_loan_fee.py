"""A veteran who gives their own rating and asks whether they owe the home loan funding fee is told of the exemption."""

import pytest

from tests.verification.worked_out import worked_out_answer
from verification.loan_fee import funding_fee_answer, funding_fee_rating_parse


@pytest.mark.parametrize(("question", "rating"), [
    # It led with the fee table's 3.3% row (and, before, with "your combined rating would be 10%").
    ("im 10% service connected for tinnitus. buying a house, its my 2nd va loan and putting 0 down. do i have to pay "
     "the funding fee? isnt it like 3 percent", 10),
    ("buying my first house with a VA loan, 0 down. whats the funding fee percent? and can i get out of it, i have a 30% "
     "rating", 30),
    ("I'm rated 70% do I pay the VA funding fee on an IRRRL", 70),
])
def test_the_askers_own_rating_beside_the_fee_is_read(question, rating):
    assert funding_fee_rating_parse(text=question) == rating


@pytest.mark.parametrize("question", [
    "whats the funding fee for a second use",  # no rating: the fee table answers
    "I'm rated 0% for a scar, do I still pay the funding fee",  # no compensation is paid at 0%
    "I paid the funding fee and got rated 30% after closing, can I get a refund",  # the refund's own rule
    "my husband is 50% service connected, does he pay the funding fee",  # someone else's loan
    "my claim is pending for 40%, do I have to pay the funding fee",
    "I'm 30% and my wife is 20%, do we pay the funding fee",  # two figures
])
def test_questions_it_does_not_read(question):
    assert funding_fee_rating_parse(text=question) is None


def test_the_answer_leads_with_no_and_says_where_the_exemption_shows():
    answer = funding_fee_answer(rating=10)
    assert answer.startswith("No: veterans receiving VA disability compensation are exempt from the VA funding fee [1]")
    assert "A 10% service-connected rating is paid compensation" in answer and "Certificate of Eligibility" in answer


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_pipeline_cites_the_fee_pages_and_the_coe():
    from verification.pipeline.direct import FUNDING_FEE_MODEL

    result = worked_out_answer("im 10% service connected for tinnitus. buying a house, its my 2nd va loan and putting 0 "
                               "down. do i have to pay the funding fee?", model=FUNDING_FEE_MODEL,
                               routing_reason="funding_fee")
    assert [c["chunk_id"] for c in result.citations] == ["loan-funding-fee-purchase", "loan-funding-fee-other",
                                                         "term-certificate-of-eligibility"]
