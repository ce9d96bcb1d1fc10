"""What the chat pages and the API rely on: follow-ups rewritten from the conversation, a topic or source
restriction on retrieval and every cache level, the question as asked on every answer, crisis first."""

import pytest

from knowledge.models import AnsweredQuestion, Chunk, Source
from verification.preprocess import question_hash
from verification.scope import SCOPE_MESSAGE_CRISIS
from verification.services import (
    ERR_HISTORY,
    ERR_UNKNOWN_SOURCE,
    ERR_UNKNOWN_TOPIC,
    QuestionInvalid,
    answer_question,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]


def stage(result, name):
    return next(s for s in result.trace if s["stage"] == name)


def retrieved_chunks(result):
    entry_ids = [r["entry_id"] for r in AnsweredQuestion.objects.get(id=result.id).retrieved]
    return Chunk.objects.filter(entry_id__in=entry_ids).select_related("topic", "source")


def test_a_follow_up_is_answered_as_rewritten_from_the_conversation():
    result = answer_question(question="what about my knee?", history=["What is the VA rating for tinnitus?"],
                             use_cache=False)
    assert result.question == "what about my knee?"
    assert result.rewritten_question == "What is the VA rating for my knee?"
    assert stage(result, "rewrite")["decision"] == result.rewritten_question
    assert [s["stage"] for s in result.trace].index("rewrite") < [s["stage"] for s in result.trace].index("embed")
    assert not result.refused and "knee" in result.answer.lower()
    assert AnsweredQuestion.objects.get(id=result.id).question == result.rewritten_question


def test_a_level_follow_up_keeps_the_condition():
    result = answer_question(question="and at 70 percent?", history=["What is the rating for PTSD at 50 percent?"],
                             use_cache=False)
    assert result.rewritten_question == "What is the rating for PTSD at 70 percent?"
    assert not result.refused and "PTSD" in result.answer


def test_a_standalone_question_is_left_alone():
    result = answer_question(question="How do I file a Higher-Level Review?",
                             history=["What is the VA rating for tinnitus?"], use_cache=False)
    assert result.rewritten_question is None and stage(result, "rewrite")["decision"] == "standalone"
    assert "rewrite" not in [s["stage"] for s in answer_question(question="What is TDIU?").trace]


def test_a_follow_up_is_cached_under_its_rewritten_words():
    bare = answer_question(question="and at 70 percent?")
    followed = answer_question(question="and at 70 percent?", history=["What is the rating for PTSD at 50 percent?"])
    assert followed.cache == "miss" and followed.id != bare.id
    again = answer_question(question="What is the rating for PTSD at 70 percent?")
    assert again.cache == "exact" and again.id == followed.id and again.rewritten_question is None


def test_a_cache_hit_shows_the_question_as_asked_not_the_stored_one():
    first = answer_question(question="How long do I have to file a Board appeal?")
    second = answer_question(question="how long do I have to file a board appeal")
    assert second.cache == "exact" and second.id == first.id
    assert second.question == "how long do I have to file a board appeal"


def test_a_crisis_is_answered_before_any_cached_answer():
    crisis = "I want to end my life, how do I file a claim?"
    stored = answer_question(question="How do I file a disability claim?")
    assert answer_question(question="How do I file a disability claim?").cache == "exact"
    AnsweredQuestion.objects.filter(id=stored.id).update(question_hash=question_hash(text=crisis))
    result = answer_question(question=crisis)
    assert result.answer == SCOPE_MESSAGE_CRISIS and result.cache == "miss" and result.id != stored.id
    stages = [s["stage"] for s in result.trace]
    assert "cache_exact" not in stages and stage(result, "crisis")["decision"] == "out_of_scope:crisis"


def test_a_topic_keeps_retrieval_and_citations_to_it():
    result = answer_question(question="How much money do I get each month while I'm in school?",
                             topic="education_benefits", use_cache=False)
    assert not result.refused
    assert {c.topic.slug for c in retrieved_chunks(result)} == {"education_benefits"}
    cited = Chunk.objects.filter(entry_id__in=[c["chunk_id"] for c in result.citations])
    assert {c.topic.slug for c in cited.select_related("topic")} == {"education_benefits"}


def test_a_source_keeps_retrieval_and_citations_to_that_page():
    url = Chunk.objects.select_related("source").get(entry_id="dc-6260-tinnitus").source.url
    result = answer_question(question="What rating do I get for ringing in my ears?", source=url, use_cache=False)
    assert {c.source.url for c in retrieved_chunks(result)} == {url}
    assert result.citations and {c["url"] for c in result.citations} == {url}


def test_the_exact_cache_is_kept_to_the_restriction():
    question = "Can I use the GI Bill for flight school?"
    whole = answer_question(question=question)
    restricted = answer_question(question=question, topic="education_benefits")
    assert restricted.cache == "miss" and restricted.id != whole.id
    assert answer_question(question=question, topic="home_loans").cache == "miss"


def test_the_semantic_and_graph_caches_are_kept_to_the_restriction(django_user_model):
    from verification.review import answer_verify

    first = answer_question(question="What is the rating for tinnitus under DC 6260?")
    answer_verify(answered_question=AnsweredQuestion.objects.get(id=first.id),
                  user=django_user_model.objects.create_user("reviewer"))
    paraphrase = "what rating is given for tinnitus under DC 6260"
    restricted = answer_question(question=paraphrase, topic="disability_ratings")
    assert restricted.cache == "miss" and restricted.id != first.id
    served = answer_question(question=paraphrase)
    assert served.cache in {"semantic", "graph"} and served.id == first.id
    assert served.question == paraphrase


def test_an_unknown_topic_or_source_is_refused_by_name():
    with pytest.raises(QuestionInvalid) as unknown_topic:
        answer_question(question="What is TDIU?", topic="space_travel")
    assert unknown_topic.value.code == "unknown_topic"
    assert unknown_topic.value.message.startswith(ERR_UNKNOWN_TOPIC.split("{")[0] + "space_travel")
    assert "education_benefits" in unknown_topic.value.message
    url = "https://www.va.gov/no-such-page/"
    assert not Source.objects.filter(url=url).exists()
    with pytest.raises(QuestionInvalid) as unknown_source:
        answer_question(question="What is TDIU?", source=url)
    assert unknown_source.value.code == "unknown_source"
    assert unknown_source.value.message == ERR_UNKNOWN_SOURCE.format(source=url)


@pytest.mark.parametrize("history", ["What is TDIU?", [1, 2], None])
def test_history_must_be_a_list_of_questions(history):
    with pytest.raises(QuestionInvalid) as invalid:
        answer_question(question="what about my knee?", history=history)
    assert invalid.value.code == "invalid_history" and invalid.value.message == ERR_HISTORY
