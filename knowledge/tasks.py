from celery import shared_task

from knowledge.embeddings.base import EmbeddingError
from knowledge.services import chunk_sentences_embed, chunks_embed, chunks_reembed

# An embedding batch is idempotent (current vectors are skipped), so a failed one is simply retried with backoff.
EMBED_TASK_OPTIONS = {
    "bind": True,
    "autoretry_for": (EmbeddingError, ConnectionError, TimeoutError),
    "retry_backoff": True,
    "retry_backoff_max": 120,
    "max_retries": 5,
    "soft_time_limit": 300,
    "time_limit": 360,
}


@shared_task(**EMBED_TASK_OPTIONS)
def chunks_embed_task(self, chunk_ids: list[int], provider_name: str | None = None) -> int:
    return chunks_embed(chunk_ids=chunk_ids, provider_name=provider_name)


@shared_task(**EMBED_TASK_OPTIONS)
def chunk_sentences_embed_task(self, chunk_ids: list[int], provider_name: str | None = None) -> int:
    return chunk_sentences_embed(chunk_ids=chunk_ids, provider_name=provider_name)


@shared_task(bind=True, autoretry_for=(EmbeddingError, ConnectionError, TimeoutError), retry_backoff=True,
             retry_backoff_max=300, max_retries=3, soft_time_limit=1800, time_limit=1900)
def chunks_reembed_task(self, provider_name: str | None = None) -> dict[str, int]:
    result = chunks_reembed(provider_name=provider_name)
    return {"chunks": result.chunks, "sentences": result.sentences, "retired": result.retired}
