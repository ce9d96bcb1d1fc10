"""Answer generators behind one interface (``Generator``): ``extractive`` (offline, deterministic) and
``openai`` (any OpenAI-compatible server). ``generator_get`` picks one by name (``settings.LLM_PROVIDER``)."""

from __future__ import annotations

from verification.generators.base import Generation, GenerationContext, GenerationError, Generator

__all__ = ["EXTRACTIVE", "Generation", "GenerationContext", "GenerationError", "Generator", "generator_get"]

EXTRACTIVE = "extractive"


def generator_get(*, name: str) -> Generator:
    """Return the generator called ``name``; the extractive one for any name not known."""
    from verification.generators.extractive import ExtractiveGenerator

    if name == "openai":  # imported only when configured: the openai package takes a second to import
        from verification.generators.openai_compatible import OpenAICompatibleGenerator

        return OpenAICompatibleGenerator()
    return ExtractiveGenerator()
