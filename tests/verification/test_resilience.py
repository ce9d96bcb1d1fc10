"""Outside services that hang or fail cost an answer seconds, not the request: the time budget bounds every
call, circuit breakers stop calling a failing service, and what a fallback made is not served from the cache
once the service is back. Faults are real: a server that accepts and never answers, a fake that answers 500."""

import socket
import threading

import pytest

from knowledge.models import AnsweredQuestion
from verification.services import answer_question
from veterans_ai.resilience import EMBEDDING, LLM, breaker, breaker_states, call_limits, time_budget

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("bundled_kb")]

QUESTION = "What is the VA rating for tinnitus?"


class HangingServer:
    """Accepts connections on 127.0.0.1 and never answers; counts them."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.connections: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections.append(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.connections:
            conn.close()


@pytest.fixture
def hanging():
    server = HangingServer()
    yield server
    server.close()


@pytest.fixture
def llm_settings(settings):
    settings.LLM_PROVIDER = "openai"
    settings.OPENAI_API_KEY = "test-key"
    settings.LLM_MODEL, settings.LLM_PREMIUM_MODEL = "cheap-model", "premium-model"
    return settings


def test_a_hanging_llm_ends_in_the_offline_answer_within_the_budget(llm_settings, hanging):
    # The client's own limits would hold the request 30 s × 4 attempts; the budget leaves room for one short try.
    llm_settings.OPENAI_BASE_URL = hanging.base_url
    llm_settings.OPENAI_TIMEOUT_SECONDS, llm_settings.OPENAI_MAX_RETRIES = 30.0, 3
    llm_settings.ANSWER_TIME_BUDGET_SECONDS, llm_settings.ANSWER_FALLBACK_RESERVE_SECONDS = 5.0, 2.0
    result = answer_question(question=QUESTION)
    assert not result.refused and "10" in result.answer
    assert result.model.startswith("extractive (fallback from")
    assert len(hanging.connections) == 1  # one attempt fitted the budget; no retries past it
    # Made by the fallback: not served again from the cache once the LLM is back.
    assert not AnsweredQuestion.objects.get(id=result.id).current
    assert answer_question(question=QUESTION).cache == "miss"


def test_the_llm_breaker_opens_after_five_failures_and_the_fallback_answers_at_once(llm_settings, openai_configured):
    llm_settings.OPENAI_MAX_RETRIES = 0
    openai_configured.fail_next(times=100, status=500, path="/v1/chat/completions")
    for _ in range(5):
        assert answer_question(question=QUESTION, use_cache=False).model.startswith("extractive (fallback")
    assert breaker_states()[LLM] == "open"
    calls = len(openai_configured.chat_requests)
    result = answer_question(question=QUESTION, use_cache=False)
    assert result.model.startswith("extractive (fallback") and not result.refused
    assert len(openai_configured.chat_requests) == calls  # not called while open


def test_the_breaker_half_opens_and_closes_after_two_successes(settings):
    settings.BREAKER_RESET_SECONDS = 0.0
    circuit = breaker(EMBEDDING)

    def failing():
        raise ConnectionError("down")

    for _ in range(settings.BREAKER_FAIL_MAX):
        with pytest.raises(Exception):  # noqa: B017 - the first failures re-raise, the last trips the breaker
            circuit.call(failing)
    assert circuit.current_state == "open"
    circuit.call(lambda: "ok")  # reset timeout 0: the next call goes through, half-open
    assert circuit.current_state == "half-open"
    circuit.call(lambda: "ok")
    assert circuit.current_state == "closed"


def test_a_hanging_embedding_service_falls_back_to_the_local_model(settings, hanging):
    settings.OPENAI_API_KEY, settings.OPENAI_BASE_URL = "test-key", hanging.base_url
    settings.EMBEDDING_PROVIDER, settings.EMBEDDING_OFFLINE_FALLBACK = "openai", True
    settings.ANSWER_TIME_BUDGET_SECONDS, settings.ANSWER_FALLBACK_RESERVE_SECONDS = 6.0, 2.0
    result = answer_question(question=QUESTION)
    assert not result.refused and "6260" in result.answer
    assert "offline" in result.model and result.routing_reason
    assert len(hanging.connections) == 1
    assert not AnsweredQuestion.objects.get(id=result.id).current


def test_retries_are_fitted_into_what_is_left_of_the_budget(settings):
    settings.ANSWER_FALLBACK_RESERVE_SECONDS = 2.0
    assert call_limits(timeout=30.0, max_retries=3) == call_limits(timeout=30.0, max_retries=3)  # no budget
    with time_budget(12.0):
        limits = call_limits(timeout=30.0, max_retries=3)
        assert limits.max_retries >= 1 and limits.timeout * (limits.max_retries + 1) <= 10.0
    with time_budget(3.0):
        assert call_limits(timeout=30.0, max_retries=3).max_retries == 0
