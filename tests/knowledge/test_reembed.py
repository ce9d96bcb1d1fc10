"""The re-embedding job gives chunks the vectors they lack and drops retired models' vectors."""

import pytest

from knowledge.embeddings import embedding_provider_get
from knowledge.models import Chunk, ChunkEmbedding, ChunkSentence
from knowledge.tasks import chunks_reembed_task

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ingested")]


def test_missing_vectors_are_made_and_retired_models_vectors_deleted():
    model = embedding_provider_get().model_name
    total = Chunk.objects.count()
    first, second = Chunk.objects.order_by("id")[:2]
    ChunkEmbedding.objects.filter(chunk=first).delete()
    ChunkSentence.objects.filter(chunk=second).delete()
    kept = ChunkEmbedding.objects.get(chunk=second)
    ChunkEmbedding.objects.create(chunk=second, model="retired-model", dimensions=384, text_hash="x",
                                  embedding=kept.embedding)

    assert chunks_reembed_task.delay().get() == {"chunks": 1, "sentences": 1, "retired": 1}
    assert chunks_reembed_task.delay().get() == {"chunks": 0, "sentences": 0, "retired": 0}

    assert ChunkEmbedding.objects.filter(model=model).count() == total
    assert set(ChunkEmbedding.objects.values_list("model", flat=True)) == {model}
    assert ChunkSentence.objects.filter(chunk=second, model=model).exists()


def test_a_vector_made_from_older_text_is_made_again():
    chunk = Chunk.objects.order_by("id").first()
    ChunkEmbedding.objects.filter(chunk=chunk).update(text_hash="old")
    Chunk.objects.filter(id=chunk.id).update(content=chunk.content + " More.")  # updated_at is not touched here
    Chunk.objects.get(id=chunk.id).save(update_fields=["updated_at"])

    assert chunks_reembed_task.delay().get()["chunks"] == 1
    assert ChunkEmbedding.objects.get(chunk=chunk).text_hash != "old"
