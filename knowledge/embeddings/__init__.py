"""Embedding providers: the offline MiniLM model (default) or an OpenAI-compatible endpoint."""

import functools

from knowledge.embeddings.base import EmbeddingError, EmbeddingProvider

PROVIDERS = ("local", "openai")
ERROR_UNKNOWN_PROVIDER = "Unknown embedding provider {name!r}: EMBEDDING_PROVIDER must be one of {choices}"

__all__ = ["PROVIDERS", "EmbeddingError", "EmbeddingProvider", "embedding_provider_get"]


def embedding_provider_get(*, provider: str | None = None) -> EmbeddingProvider:
    """Return the configured provider (settings.EMBEDDING_PROVIDER unless `provider` is given), one per configuration."""
    from django.conf import settings

    name = (provider if provider is not None else settings.EMBEDDING_PROVIDER).strip().lower()
    if name == "local":
        from knowledge.embeddings.local import minilm_embedder_get

        return minilm_embedder_get()
    if name == "openai":
        return _openai_embedder_get(
            api_key=settings.OPENAI_API_KEY,
            base_url=settings.OPENAI_BASE_URL or None,
            model=settings.EMBEDDING_OPENAI_MODEL,
            # No dimensions setting yet: the model's native size unless one is added.
            dimensions=getattr(settings, "EMBEDDING_OPENAI_DIMENSIONS", None),
            batch_size=settings.EMBEDDING_BATCH_SIZE,
            timeout=settings.OPENAI_TIMEOUT_SECONDS,
            max_retries=settings.OPENAI_MAX_RETRIES,
        )
    raise ValueError(ERROR_UNKNOWN_PROVIDER.format(name=name, choices=", ".join(PROVIDERS)))


@functools.lru_cache(maxsize=8)
def _openai_embedder_get(
    *,
    api_key: str,
    base_url: str | None,
    model: str,
    dimensions: int | None,
    batch_size: int,
    timeout: float,
    max_retries: int,
) -> EmbeddingProvider:
    # Imported here so that the offline path never pays for importing the openai client.
    from knowledge.embeddings.openai_provider import OpenAIEmbedder

    return OpenAIEmbedder(
        api_key=api_key,
        base_url=base_url,
        model=model,
        dimensions=dimensions,
        batch_size=batch_size,
        timeout=timeout,
        max_retries=max_retries,
    )
