"""The OpenAI-compatible generator: the grounding prompt (Layer 2) sent to a chat-completions server."""

from __future__ import annotations

from collections.abc import Sequence

from verification.generators.base import Generation, GenerationContext, GenerationError
from verification.layers.prompt import grounding_prompt_build
from verification.layers.types import SourceChunk
from verification.llm_client import LLMError, chat_complete


class OpenAICompatibleGenerator:
    name = "openai"

    def generate(self, *, question: str, chunks: Sequence[SourceChunk], context: GenerationContext) -> Generation:
        prompt = grounding_prompt_build(question=question, chunks=chunks)
        try:
            reply = chat_complete(system=prompt.system, user=prompt.user, model=context.model)
        except LLMError as exc:
            raise GenerationError(str(exc)) from (exc.__cause__ or exc)
        return Generation(text=reply.text, model=reply.model, prompt_tokens=reply.prompt_tokens,
                          completion_tokens=reply.completion_tokens)
