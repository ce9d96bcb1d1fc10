"""The OpenAI-compatible chat client: the one module that calls chat completions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import openai
import pybreaker
from django.conf import settings

from veterans_ai.metrics import LLM_TOKENS
from veterans_ai.resilience import LLM, BudgetSpent, call_limits, outside_call, timeout_for


class LLMError(Exception):
    """The LLM could not answer (unreachable, timed out, refused the request, or returned nothing)."""


@dataclass(frozen=True)
class ChatResult:
    text: str
    model: str
    prompt_tokens: int
    completion_tokens: int


@lru_cache(maxsize=8)
def _client(api_key: str, base_url: str | None, timeout: float, max_retries: int) -> openai.OpenAI:
    return openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries)


def chat_complete(*, system: str, user: str, model: str, temperature: float = 0.1) -> ChatResult:
    """Return the model's reply; raise LLMError on any failure after the client's retries with backoff."""
    if not settings.OPENAI_API_KEY:
        raise LLMError("OPENAI_API_KEY is not set")
    # Grounded answers want little variation: the whitepaper caps temperature at 0.3.
    temperature = min(max(temperature, 0.0), 0.3)
    try:
        limits = call_limits(timeout=settings.OPENAI_TIMEOUT_SECONDS, max_retries=settings.OPENAI_MAX_RETRIES)
    except BudgetSpent as exc:
        raise LLMError(f"no time left to ask the LLM: {exc}") from exc
    client = _client(settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL, settings.OPENAI_TIMEOUT_SECONDS,
                     settings.OPENAI_MAX_RETRIES).with_options(timeout=timeout_for(limits),
                                                               max_retries=limits.max_retries)
    try:
        response = outside_call(
            LLM, client.chat.completions.create, model=model, temperature=temperature,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        )
    except pybreaker.CircuitBreakerError as exc:
        raise LLMError(f"the LLM failed {settings.BREAKER_FAIL_MAX} times in a row; not called for "
                       f"{settings.BREAKER_RESET_SECONDS:.0f} s ({exc})") from exc
    except openai.OpenAIError as exc:
        raise LLMError(f"{type(exc).__name__}: {exc}") from exc
    choice = response.choices[0] if response.choices else None
    text = (choice.message.content or "").strip() if choice and choice.message else ""
    if not text:
        raise LLMError("the model returned an empty answer")
    usage = response.usage
    if usage:
        LLM_TOKENS.labels("prompt").inc(usage.prompt_tokens or 0)
        LLM_TOKENS.labels("completion").inc(usage.completion_tokens or 0)
    return ChatResult(
        text=text,
        model=response.model or model,
        prompt_tokens=usage.prompt_tokens if usage else 0,
        completion_tokens=usage.completion_tokens if usage else 0,
    )
