"""Another agency's documents (DD-214, SF-180, NGB-22, ...) are known as such: answered or routed, never
refused as unknown VA forms."""

import pytest

from knowledge.selectors import non_va_documents_get
from verification.non_va_documents import (
    NON_VA_DOCUMENT_ANSWER,
    asks_about_document,
    non_va_document_answer,
    non_va_document_find,
)


@pytest.mark.parametrize(("question", "number"), [
    ("what is a DD214?", "DD-214"), ("I lost my dd 214", "DD-214"), ("what's an NGB 22", "NGB-22"),
    ("Where do I send an SF 180?", "SF-180"), ("what does DD Form 293 mean", "DD-293"), ("DD-215?", "DD-215"),
])
def test_documents_are_found_by_number_or_alias(question, number):
    assert non_va_document_find(question=question, documents=non_va_documents_get()).number == number


def test_va_forms_are_not_other_agencies_documents():
    assert non_va_document_find(question="What is VA Form 21-526EZ?", documents=non_va_documents_get()) is None


@pytest.mark.parametrize(("question", "about"), [
    ("How do I get a copy of my DD-214?", True), ("what is a DD214", True), ("I lost my DD-214", True),
    ("Do I need my DD-214 to file a claim?", False), ("Does my DD-214 show my combat service?", False),
])
def test_only_questions_about_the_document_itself_are_answered_from_the_list(question, about):
    assert asks_about_document(question=question) is about
    document = non_va_document_find(question=question, documents=non_va_documents_get())
    assert asks_about_document(question=question, document=document) is about


@pytest.mark.parametrize(("question", "about"), [
    ("How do I get that veteran ID card so I can quit carrying my DD214 around to get discounts?", False),
    ("how do I get a certified copy of my husband's DD-214 from 1968", True),
    ("what does DD Form 293 mean", True),
    ("I lost my dd 214, what now", True),
])
def test_the_document_is_what_the_asking_words_are_about(question, about):
    document = non_va_document_find(question=question, documents=non_va_documents_get())
    assert asks_about_document(question=question, document=document) is about


def test_every_document_says_who_issues_it_and_how_to_get_it():
    for document in non_va_documents_get():
        assert document.agency and document.what and document.get and document.url.startswith("https://www.va.gov/")
        answer = non_va_document_answer(document=document)
        assert answer.startswith(NON_VA_DOCUMENT_ANSWER.split("{")[0] + document.number) and "not a VA form" in answer


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
class TestInThePipeline:
    def test_a_dd214_is_explained_and_routed_not_refused(self):
        from verification.services import answer_question

        result = answer_question(question="How do I get a copy of my DD-214?", use_cache=False)
        assert not result.refused and result.routing_reason == "non_va_document"
        assert "milConnect" in result.answer and "SF 180" in result.answer
        assert result.citations[0]["url"] == "https://www.va.gov/records/get-military-service-records/"

    def test_a_question_naming_a_dd214_goes_on_to_retrieval(self):
        from verification.services import answer_question

        result = answer_question(question="Do I need my DD-214 to file a disability claim?", use_cache=False)
        assert result.refusal_reason != "entity_not_found" and "retrieve" in [s["stage"] for s in result.trace]

    @pytest.mark.parametrize("number", [document.number for document in non_va_documents_get()])
    def test_every_number_in_the_answer_is_stated_by_the_chunk_it_cites(self, number):
        from knowledge.models import Chunk
        from verification.layers.numbers import numbers_verify
        from verification.layers.types import SourceChunk
        from verification.services import answer_question

        result = answer_question(question=f"What is a {number}?", use_cache=False)
        assert result.routing_reason == "non_va_document" and result.citations
        contents = dict(Chunk.objects.filter(entry_id__in=[c["chunk_id"] for c in result.citations])
                        .values_list("entry_id", "content"))
        chunks = [SourceChunk(number=c["number"], chunk_id=0, entry_id=c["chunk_id"], title=c["title"],
                              url=c["url"], content=contents[c["chunk_id"]], score=1.0) for c in result.citations]
        check = numbers_verify(answer=result.answer, chunks=chunks)
        assert (check.hallucinated_numbers, check.hallucinated_codes) == ((), ())
