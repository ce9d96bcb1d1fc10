"""The interface every embedding provider implements."""

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


class EmbeddingError(RuntimeError):
    """A provider could not produce embeddings (missing model files, an endpoint failing after retries, ...)."""


@runtime_checkable
class EmbeddingProvider(Protocol):
    # Recorded with every stored vector, so vectors of different models never get compared.
    model_name: str
    dimensions: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return float32 vectors of shape (len(texts), dimensions) with L2-normalised rows, in input order.

        Empty input gives shape (0, dimensions).
        """
        ...

    def count_tokens(self, texts: Sequence[str]) -> int:
        """Return the number of tokens the model sees for these texts (for throughput figures)."""
        ...


def texts_check(texts: Sequence[str]) -> list[str]:
    """Return the texts as a list; reject a bare string, which would otherwise be embedded per character."""
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of strings, not a single string; wrap it in a list")
    items = list(texts)
    for position, text in enumerate(items):
        if not isinstance(text, str):
            raise TypeError(f"texts[{position}] is {type(text).__name__}, not str")
    return items


def rows_normalise(vectors: np.ndarray) -> np.ndarray:
    """Return float32 rows scaled to unit length; all-zero rows stay zero rather than becoming NaN."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    np.maximum(norms, np.float32(1e-12), out=norms)
    return np.ascontiguousarray(vectors / norms, dtype=np.float32)
