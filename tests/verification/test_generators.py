"""The generators behind one interface: picked by name, each returning a Generation or raising
GenerationError (the OpenAI-compatible one runs its real client against the local fake server)."""

import openai
import pytest

from verification.generators import EXTRACTIVE, GenerationContext, GenerationError, Generator, generator_get
from verification.generators.extractive import ExtractiveGenerator
from verification.generators.openai_compatible import OpenAICompatibleGenerator
from verification.layers.types import SourceChunk

CHUNKS = [SourceChunk(number=1, chunk_id=1, entry_id="tinnitus", title="Tinnitus",
                      url="https://www.va.gov/disability/tinnitus/", content="Tinnitus is rated 10% under DC 6260.",
                      score=0.8)]


@pytest.mark.parametrize(("name", "kind"), [("extractive", ExtractiveGenerator), ("openai", OpenAICompatibleGenerator),
                                            ("no-such-provider", ExtractiveGenerator)])
def test_generators_are_picked_by_name(name, kind):
    generator = generator_get(name=name)
    assert isinstance(generator, kind) and isinstance(generator, Generator)
    assert generator_get(name=EXTRACTIVE).name == "extractive"


def test_the_llm_generator_sends_the_grounding_prompt_to_the_routed_model(openai_configured):
    openai_configured.chat_replies.append("Tinnitus is rated 10% [1].")
    generation = OpenAICompatibleGenerator().generate(question="Tinnitus rating?", chunks=CHUNKS,
                                                      context=GenerationContext(model="cheap-model"))
    assert generation.text == "Tinnitus is rated 10% [1]."
    assert openai_configured.chat_requests[-1].model == "cheap-model"
    assert "<<<SOURCE [1]>>>" in openai_configured.chat_requests[-1].body["messages"][1]["content"]


def test_a_failing_llm_raises_generation_error_naming_the_cause(openai_configured):
    openai_configured.fail_next(times=5, status=500)
    with pytest.raises(GenerationError) as failure:
        OpenAICompatibleGenerator().generate(question="Tinnitus rating?", chunks=CHUNKS,
                                             context=GenerationContext(model="cheap-model"))
    assert isinstance(failure.value.__cause__, openai.InternalServerError)


@pytest.mark.django_db
@pytest.mark.usefixtures("bundled_kb")
def test_the_extractive_generator_answers_from_the_chunks_own_sentences():
    from knowledge.embeddings import embedding_provider_get
    from knowledge.models import Chunk, ChunkSentence

    provider = embedding_provider_get()
    chunk = Chunk.objects.select_related("source").get(entry_id="dc-6260-tinnitus")
    source = SourceChunk(number=1, chunk_id=chunk.id, entry_id=chunk.entry_id, title=chunk.title,
                         url=chunk.source.url, content=chunk.content, score=0.8)
    question = "What is the VA rating for tinnitus?"
    generation = ExtractiveGenerator().generate(
        question=question, chunks=[source],
        context=GenerationContext(question_vector=provider.embed([question])[0], embedding_model=provider.model_name))
    assert generation.model == "extractive" and "10%" in generation.text and "[1]" in generation.text
    sentences = set(ChunkSentence.objects.filter(chunk=chunk).values_list("text", flat=True))
    assert generation.quotes[1] and all(part in sentences for part in generation.quotes[1].split(" … "))
