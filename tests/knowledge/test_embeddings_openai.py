import time

import numpy as np
import openai
import pytest

from knowledge.embeddings import (
    EmbeddingError,
    EmbeddingProvider,
    embedding_provider_get,
)
from knowledge.embeddings.openai_provider import OpenAIEmbedder
from tests.fakes.openai_server import fake_embedding

MODEL = "text-embedding-3-small"
DIMENSIONS = 64  # the fake honours `dimensions`; small vectors keep the tests quick
TEXTS = [f"Question {i} about the GI Bill and CHAMPVA" for i in range(5)]


def expected_vectors(texts: list[str], *, dimensions: int = DIMENSIONS, model: str = MODEL) -> np.ndarray:
    vectors = np.stack([fake_embedding(text, dimensions=dimensions, model=model) for text in texts])
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def embedder_for(server, **overrides) -> OpenAIEmbedder:
    options = {
        "api_key": "test-key",
        "base_url": server.base_url,
        "model": MODEL,
        "dimensions": DIMENSIONS,
        "batch_size": 2,
        "timeout": 5.0,
        "max_retries": 2,
    } | overrides
    return OpenAIEmbedder(**options)


def test_batches_split_requests(fake_openai):
    embedder = embedder_for(fake_openai, batch_size=2)

    vectors = embedder.embed(TEXTS)

    requests = fake_openai.embedding_requests
    assert [request.body["input"] for request in requests] == [TEXTS[0:2], TEXTS[2:4], TEXTS[4:5]]
    assert {request.model for request in requests} == {MODEL}  # the API model name, without the @64
    assert {request.body["dimensions"] for request in requests} == {DIMENSIONS}
    assert requests[0].headers["authorization"] == "Bearer test-key"
    assert vectors.shape == (5, DIMENSIONS)
    assert embedder.tokens_used > 0


def test_results_are_normalised_and_in_input_order(fake_openai):
    fake_openai.reverse_embeddings = True  # the server may list items in any order; `index` says which is which
    embedder = embedder_for(fake_openai, batch_size=3)

    vectors = embedder.embed(TEXTS)

    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(vectors, expected_vectors(TEXTS), atol=1e-6)


def test_provider_interface(fake_openai):
    embedder = embedder_for(fake_openai)

    assert isinstance(embedder, EmbeddingProvider)
    assert embedder.dimensions == DIMENSIONS
    assert embedder.count_tokens(["twelve chars"]) == 3


def test_model_name_records_shortened_dimensions(fake_openai):
    # Stored vectors are keyed by model name: 64-d and 1536-d vectors of one model must not mix.
    assert embedder_for(fake_openai, dimensions=64).model_name == f"{MODEL}@64"
    assert embedder_for(fake_openai, dimensions=None).model_name == MODEL
    assert embedder_for(fake_openai, dimensions=1536).model_name == MODEL
    assert embedder_for(fake_openai, model="nomic-embed-text", dimensions=768).model_name == "nomic-embed-text"


def test_empty_input_sends_nothing(fake_openai):
    vectors = embedder_for(fake_openai).embed([])

    assert vectors.shape == (0, DIMENSIONS)
    assert fake_openai.requests == []


def test_empty_string_is_embedded_not_rejected(fake_openai):
    vectors = embedder_for(fake_openai).embed(["", "GI Bill"])

    assert vectors.shape == (2, DIMENSIONS)
    assert fake_openai.embedding_requests[0].body["input"] == [" ", "GI Bill"]


@pytest.mark.parametrize("status", [500, 503, 429])
def test_retries_then_succeeds(fake_openai, status):
    fake_openai.fail_next(times=2, status=status)
    embedder = embedder_for(fake_openai, max_retries=2, batch_size=10)

    vectors = embedder.embed(TEXTS)

    assert [request.status for request in fake_openai.embedding_requests] == [status, status, 200]
    np.testing.assert_allclose(vectors, expected_vectors(TEXTS), atol=1e-6)


def test_retries_back_off_without_a_retry_after_header(fake_openai):
    fake_openai.fail_next(times=1, status=500, retry_after_ms=None)
    embedder = embedder_for(fake_openai, max_retries=1)

    started = time.monotonic()
    embedder.embed(["one"])

    assert time.monotonic() - started >= 0.3  # the client's first backoff is 0.5 s less up to 25% jitter
    assert len(fake_openai.embedding_requests) == 2


def test_persistent_failure_raises_embedding_error(fake_openai):
    fake_openai.fail_next(times=100, status=500)
    embedder = embedder_for(fake_openai, max_retries=2)

    with pytest.raises(EmbeddingError, match=r"failed: HTTP 500.*after up to 2 retries") as excinfo:
        embedder.embed(TEXTS)

    assert len(fake_openai.embedding_requests) == 3  # one try and two retries
    assert isinstance(excinfo.value.__cause__, openai.InternalServerError)


def test_persistent_rate_limit_raises_embedding_error(fake_openai):
    fake_openai.fail_next(times=100, status=429)

    with pytest.raises(EmbeddingError, match="HTTP 429"):
        embedder_for(fake_openai, max_retries=1).embed(TEXTS)

    assert len(fake_openai.embedding_requests) == 2


def test_bad_request_is_not_retried(fake_openai):
    fake_openai.fail_next(times=1, status=400)

    with pytest.raises(EmbeddingError, match="was rejected: HTTP 400"):
        embedder_for(fake_openai, max_retries=3).embed(TEXTS)

    assert len(fake_openai.embedding_requests) == 1


def test_timeout_raises_embedding_error(fake_openai):
    fake_openai.delay_next(seconds=3.0, times=10)
    embedder = embedder_for(fake_openai, timeout=0.2, max_retries=1)

    started = time.monotonic()
    with pytest.raises(EmbeddingError, match="timed out"):
        embedder.embed(TEXTS)

    assert time.monotonic() - started < 2.5
    assert len(fake_openai.embedding_requests) == 2  # one try and one retry, both abandoned


def test_a_slow_response_within_the_timeout_succeeds(fake_openai):
    fake_openai.delay_next(seconds=0.2)

    vectors = embedder_for(fake_openai, timeout=5.0).embed(["one"])

    assert vectors.shape == (1, DIMENSIONS)


def test_wrong_dimensions_raise_embedding_error(fake_openai):
    embedder = embedder_for(fake_openai, send_dimensions=False)  # the fake then answers 1536-d

    with pytest.raises(EmbeddingError, match="expected 64-d vectors"):
        embedder.embed(["one"])


def test_missing_api_key_is_a_clear_error():
    with pytest.raises(EmbeddingError, match="OPENAI_API_KEY"):
        OpenAIEmbedder(api_key="", base_url="http://127.0.0.1:9/v1")


def test_factory_builds_the_openai_provider_from_settings(fake_openai, settings):
    settings.OPENAI_API_KEY = "settings-key"
    settings.OPENAI_BASE_URL = fake_openai.base_url
    settings.EMBEDDING_OPENAI_MODEL = MODEL
    settings.EMBEDDING_BATCH_SIZE = 4
    settings.OPENAI_TIMEOUT_SECONDS = 5.0
    settings.OPENAI_MAX_RETRIES = 0

    provider = embedding_provider_get(provider="openai")
    vectors = provider.embed(TEXTS)

    assert provider is embedding_provider_get(provider="openai")  # cached per configuration
    assert provider.model_name == MODEL
    assert provider.dimensions == 1536
    assert vectors.shape == (5, 1536)
    assert [len(request.body["input"]) for request in fake_openai.embedding_requests] == [4, 1]
    settings.EMBEDDING_BATCH_SIZE = 2
    assert embedding_provider_get(provider="openai") is not provider


def test_factory_reads_the_provider_setting(settings):
    settings.EMBEDDING_PROVIDER = "local"

    provider = embedding_provider_get()

    assert provider.model_name == "all-MiniLM-L6-v2"
    assert provider is embedding_provider_get(provider="local")


def test_factory_rejects_an_unknown_provider():
    with pytest.raises(ValueError, match=r"Unknown embedding provider 'cohere'.*local, openai"):
        embedding_provider_get(provider="cohere")


# The fake server's chat endpoint, which the generator tests rely on, driven by the real client.


def test_fake_server_scripts_chat_replies(fake_openai):
    client = openai.OpenAI(api_key="test-key", base_url=fake_openai.base_url, max_retries=0)
    fake_openai.chat_replies.extend(["First reply.", lambda body: f"Echo: {body['messages'][-1]['content']}"])

    first = client.chat.completions.create(
        model="gpt-4.1-mini", temperature=0.0, messages=[{"role": "user", "content": "Hello"}]
    )
    second = client.chat.completions.create(model="gpt-4.1", messages=[{"role": "user", "content": "Again"}])

    assert first.choices[0].message.content == "First reply."
    assert second.choices[0].message.content == "Echo: Again"
    assert [(r.model, r.temperature) for r in fake_openai.chat_requests] == [("gpt-4.1-mini", 0.0), ("gpt-4.1", None)]
    with pytest.raises(openai.BadRequestError, match="no scripted chat reply"):
        client.chat.completions.create(model="gpt-4.1", messages=[{"role": "user", "content": "More"}])


def test_fake_server_streams_chat_and_injects_faults(fake_openai):
    client = openai.OpenAI(api_key="test-key", base_url=fake_openai.base_url, max_retries=1)
    fake_openai.chat_responder = lambda body: "Streamed."
    fake_openai.fail_next(times=1, status=429, path="/v1/chat/completions")

    stream = client.chat.completions.create(
        model="gpt-4.1-mini", messages=[{"role": "user", "content": "Hi"}], stream=True
    )
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)

    assert text == "Streamed."
    assert [r.status for r in fake_openai.chat_requests] == [429, 200]


def test_fake_server_answers_base64_embeddings(fake_openai):
    client = openai.OpenAI(api_key="test-key", base_url=fake_openai.base_url, max_retries=0)

    response = client.embeddings.create(model=MODEL, input=["one", "two"], dimensions=8)  # base64 by default

    assert fake_openai.embedding_requests[0].body["encoding_format"] == "base64"
    np.testing.assert_allclose(response.data[1].embedding, fake_embedding("two", dimensions=8, model=MODEL))
