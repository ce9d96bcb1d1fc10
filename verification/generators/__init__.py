"""Answer generators: `extractive` (offline, deterministic) and `openai` (any OpenAI-compatible server)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Generation:
    text: str
    model: str
    quotes: dict[int, str] = field(default_factory=dict)  # citation number → the words the answer rests on
    fallback_reason: str = ""  # why the LLM was not used, when it was asked for
    prompt_tokens: int = 0
    completion_tokens: int = 0
