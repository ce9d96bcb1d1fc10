"""What every answer generator takes and returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from verification.layers.types import SourceChunk


@dataclass(frozen=True)
class Generation:
    text: str
    model: str
    quotes: dict[int, str] = field(default_factory=dict)  # citation number → the words the answer rests on
    fallback_reason: str = ""  # why the LLM was not used, when it was asked for
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True)
class GenerationContext:
    """What a generator may use besides the question and the chunks."""

    model: str = ""  # the model the router chose (LLM generators)
    question_vector: np.ndarray | None = None
    chunk_types: Mapping[int, str] = field(default_factory=dict)  # chunk id → "rating_table", "definition", ...
    codes: Sequence[str] = ()  # codes and forms the question names without writing them
    embedding_model: str = ""  # the model that made question_vector
    provider_name: str | None = None  # the embedding provider answering, when not the configured one
    rare_words: Sequence[str] = ()  # the question's words the corpus holds only a few times


class GenerationError(Exception):
    """The generator could not answer (unreachable, timed out, refused, or returned nothing)."""


@runtime_checkable
class Generator(Protocol):
    name: str

    def generate(self, *, question: str, chunks: Sequence[SourceChunk], context: GenerationContext) -> Generation:
        """Return a cited answer ([n] markers numbered as ``chunks``), or raise GenerationError."""
        ...
