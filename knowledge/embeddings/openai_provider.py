"""Embeddings from OpenAI or any OpenAI-compatible endpoint. The only module that imports `openai` for embeddings."""

import math
import threading
from collections.abc import Sequence

import numpy as np
import openai
import pybreaker
from django.conf import settings

from knowledge.embeddings.base import EmbeddingError, rows_normalise, texts_check
from veterans_ai.resilience import EMBEDDING, BudgetSpent, call_limits, outside_call, timeout_for

DEFAULT_MODEL = "text-embedding-3-small"
# Native output sizes; text-embedding-3 models can also return fewer dimensions on request.
KNOWN_DIMENSIONS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072, "text-embedding-ada-002": 1536}
# OpenAI accepts at most 2,048 inputs per request.
MAX_BATCH_SIZE = 2048
# Rough English average, used only for throughput estimates: tiktoken is not a dependency.
CHARS_PER_TOKEN = 4

ERROR_FAILED = (
    "OpenAI embeddings request to {endpoint} (model {model}) failed: {reason} (after up to {retries} retries)"
)
ERROR_REJECTED = "OpenAI embeddings request to {endpoint} (model {model}) was rejected: {reason}"
ERROR_MALFORMED = "OpenAI embeddings response from {endpoint} (model {model}) is malformed: {reason}"


class OpenAIEmbedder:
    """Embeddings through the `openai` client: batched, retried by the client with exponential backoff
    (429, 408/409, 5xx, connection errors and timeouts; Retry-After is honoured), rows L2-normalised."""

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None = None,
        model: str = DEFAULT_MODEL,
        dimensions: int | None = None,
        batch_size: int = 64,
        timeout: float = 30.0,
        max_retries: int = 3,
        send_dimensions: bool | None = None,
    ) -> None:
        if not api_key:
            raise EmbeddingError("The OpenAI embedding provider needs OPENAI_API_KEY; set it or use the local provider")
        native = KNOWN_DIMENSIONS.get(model)
        self.dimensions = dimensions or native or 1536
        # Shortened text-embedding-3 vectors are not comparable with full-length ones of the same model, so they
        # are stored under a name of their own.
        self.model_name = model if native in (None, self.dimensions) else f"{model}@{self.dimensions}"
        self._model = model
        self.batch_size = max(1, min(batch_size, MAX_BATCH_SIZE))
        self.max_retries = max_retries
        self.timeout = timeout
        # Only text-embedding-3 models take `dimensions`; other compatible servers may reject the parameter.
        self._send_dimensions = model.startswith("text-embedding-3") if send_dimensions is None else send_dimensions
        self._endpoint = base_url or "https://api.openai.com/v1"
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)
        self._usage_lock = threading.Lock()
        self.tokens_used = 0  # prompt tokens reported by the endpoint, for cost and throughput figures

    def count_tokens(self, texts: Sequence[str]) -> int:
        """Return an estimate (about 4 characters a token); the endpoint's own count lands in tokens_used."""
        return sum(max(1, math.ceil(len(text) / CHARS_PER_TOKEN)) for text in texts_check(texts))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        items = texts_check(texts)
        if not items:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        # OpenAI rejects an empty string with a 400 that would fail the whole batch; a space embeds as "nothing".
        items = [text if text else " " for text in items]
        batches = [items[start : start + self.batch_size] for start in range(0, len(items), self.batch_size)]
        return rows_normalise(np.concatenate([self._embed_batch(batch) for batch in batches]))

    def _embed_batch(self, batch: list[str]) -> np.ndarray:
        options: dict[str, object] = {"input": batch, "model": self._model, "encoding_format": "float"}
        if self._send_dimensions:
            options["dimensions"] = self.dimensions
        context = {"endpoint": self._endpoint, "model": self._model}
        try:
            limits = call_limits(timeout=self.timeout, max_retries=self.max_retries,
                                 share=settings.EMBEDDING_BUDGET_SHARE)
        except BudgetSpent as exc:
            raise EmbeddingError(ERROR_FAILED.format(**context, retries=0, reason=str(exc))) from exc
        client = self._client.with_options(timeout=timeout_for(limits), max_retries=limits.max_retries)
        try:
            response = outside_call(EMBEDDING, client.embeddings.create, **options)
        except pybreaker.CircuitBreakerError as exc:
            reason = f"circuit breaker open after {settings.BREAKER_FAIL_MAX} failures in a row ({exc})"
            raise EmbeddingError(ERROR_FAILED.format(**context, retries=0, reason=reason)) from exc
        except openai.APIStatusError as exc:
            reason = f"HTTP {exc.status_code}: {_error_message(exc)}"
            if _retryable(exc.status_code):
                raise EmbeddingError(ERROR_FAILED.format(**context, retries=self.max_retries, reason=reason)) from exc
            raise EmbeddingError(ERROR_REJECTED.format(**context, reason=reason)) from exc
        except openai.APITimeoutError as exc:
            reason = "timed out"
            raise EmbeddingError(ERROR_FAILED.format(**context, retries=self.max_retries, reason=reason)) from exc
        except openai.APIConnectionError as exc:
            reason = f"connection error ({exc.__cause__ or exc})"
            raise EmbeddingError(ERROR_FAILED.format(**context, retries=self.max_retries, reason=reason)) from exc
        except openai.OpenAIError as exc:
            raise EmbeddingError(ERROR_MALFORMED.format(**context, reason=exc)) from exc

        data = sorted(response.data, key=lambda item: item.index)
        if [item.index for item in data] != list(range(len(batch))):
            reason = f"expected indices 0..{len(batch) - 1}, got {[item.index for item in response.data]}"
            raise EmbeddingError(ERROR_MALFORMED.format(**context, reason=reason))
        vectors = np.asarray([item.embedding for item in data], dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[1] != self.dimensions:
            reason = f"expected {self.dimensions}-d vectors, got shape {vectors.shape}"
            raise EmbeddingError(ERROR_MALFORMED.format(**context, reason=reason))
        if response.usage is not None:
            with self._usage_lock:
                self.tokens_used += response.usage.prompt_tokens
        return vectors


def _retryable(status: int) -> bool:
    # The statuses the openai client retries by itself; failing with one of them means the retries ran out.
    return status in (408, 409, 429) or status >= 500


def _error_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
    return exc.message
