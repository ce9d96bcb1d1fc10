import json
from pathlib import Path

import numpy as np
import pytest

from knowledge.embeddings.base import EmbeddingProvider
from knowledge.embeddings.local import (
    MAX_SEQ_LENGTH,
    MODEL_NAME,
    WEIGHTS_SHA256,
    MiniLMEmbedder,
    minilm_embedder_get,
    weights_sha256,
)

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "minilm_reference.json"
# The tolerance against sentence-transformers; the ONNX Runtime graph is ~2e-7 off.
REFERENCE_TOLERANCE = 1e-4

SENTENCES = [
    "What is the VA disability rating for tinnitus?",
    "How do I appeal?",
    "Tinnitus, recurrent, is rated 10 percent under diagnostic code 6260, whether heard in one ear or both.",
    "",
    "GI Bill",
    (
        "CHAMPVA is a health care program for certain spouses and children of veterans who are permanently and "
        "totally disabled, or who died from a service-connected disability."
    ),
]


@pytest.fixture(scope="module")
def embedder():
    return minilm_embedder_get()


@pytest.fixture(scope="module")
def reference() -> dict:
    if not REFERENCE.exists():
        pytest.skip(f"{REFERENCE} is missing (reference vectors live in ../shared/data/minilm_reference.json)")
    return json.loads(REFERENCE.read_text())


def test_weights_are_the_packaged_file():
    assert weights_sha256() == WEIGHTS_SHA256


def test_weights_match_the_reference_file(reference):
    assert weights_sha256() == reference["model_safetensors_sha256"]


def test_vectors_match_the_reference(embedder, reference):
    expected = np.asarray(reference["embeddings"], dtype=np.float32)

    vectors = embedder.embed(reference["sentences"])

    assert vectors.shape == expected.shape == (len(reference["sentences"]), 384)
    assert vectors.dtype == np.float32
    assert np.abs(vectors - expected).max() <= REFERENCE_TOLERANCE


def test_each_reference_vector_matches_alone(embedder, reference):
    for sentence, expected in zip(reference["sentences"], reference["embeddings"], strict=True):
        vector = embedder.embed([sentence])[0]
        assert np.abs(vector - np.asarray(expected, dtype=np.float32)).max() <= REFERENCE_TOLERANCE, sentence


def test_provider_interface(embedder):
    assert isinstance(embedder, EmbeddingProvider)
    assert embedder.model_name == MODEL_NAME == "all-MiniLM-L6-v2"
    assert embedder.dimensions == 384
    assert minilm_embedder_get() is embedder  # loaded once per process


def test_rows_are_unit_length_float32(embedder):
    vectors = embedder.embed(SENTENCES)

    assert vectors.dtype == np.float32
    assert vectors.flags.c_contiguous
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_batch_equals_one_at_a_time(embedder):
    # Mixed lengths in one batch: padding and length sorting must not leak between texts.
    singles = np.stack([embedder.embed([text])[0] for text in SENTENCES])

    batch = embedder.embed(SENTENCES)

    np.testing.assert_allclose(batch, singles, atol=1e-5)


def test_order_and_duplicates_do_not_change_vectors(embedder):
    forward = embedder.embed(SENTENCES)

    backward = embedder.embed(SENTENCES[::-1])
    doubled = embedder.embed(SENTENCES + SENTENCES)

    np.testing.assert_allclose(backward[::-1], forward, atol=1e-5)
    np.testing.assert_allclose(doubled[: len(SENTENCES)], forward, atol=1e-5)
    np.testing.assert_allclose(doubled[len(SENTENCES) :], forward, atol=1e-5)


def test_large_input_spans_several_batches(embedder):
    texts = [f"Question {i}: what is the rating for diagnostic code {6000 + i}?" for i in range(150)]

    batch = embedder.embed(texts)

    assert batch.shape == (150, 384)
    for index in (0, 77, 149):
        np.testing.assert_allclose(batch[index], embedder.embed([texts[index]])[0], atol=1e-5)


def test_empty_input(embedder):
    vectors = embedder.embed([])

    assert vectors.shape == (0, 384)
    assert vectors.dtype == np.float32
    assert embedder.count_tokens([]) == 0


def test_a_bare_string_is_refused(embedder):
    with pytest.raises(TypeError, match="not a single string"):
        embedder.embed("What is the rating for tinnitus?")


def test_long_text_is_truncated_to_256_tokens(embedder):
    words = ("The veteran filed a supplemental claim with new and relevant evidence about hearing loss. " * 60).split()
    long_text = " ".join(words)
    # Words beyond the first 256 tokens are never seen, whatever they say.
    changed_tail = " ".join(words[:300] + ["PTSD", "pension", "CHAMPVA"] * 50)

    assert len(embedder.token_ids([long_text])[0]) == MAX_SEQ_LENGTH
    assert embedder.count_tokens([long_text, "GI Bill"]) == MAX_SEQ_LENGTH + 4  # [CLS] gi bill [SEP]
    np.testing.assert_allclose(embedder.embed([changed_tail])[0], embedder.embed([long_text])[0], atol=1e-6)
    assert float(embedder.embed([long_text])[0] @ embedder.embed([" ".join(words[:50])])[0]) < 0.9999


def test_truncation_matches_the_reference(embedder, reference):
    # The reference's last sentence is 402 tokens long; sentence-transformers kept the first 256.
    long_sentence = max(reference["sentences"], key=len)
    expected = np.asarray(reference["embeddings"][reference["sentences"].index(long_sentence)], dtype=np.float32)

    assert len(embedder.token_ids([long_sentence])[0]) == reference["max_seq_length"] == MAX_SEQ_LENGTH
    assert np.abs(embedder.embed([long_sentence + " and more words past the limit"])[0] - expected).max() <= (
        REFERENCE_TOLERANCE
    )


@pytest.mark.parametrize(("omp", "threads"), [("1", 1), ("2", 2), (None, 0), ("many", 0)])
def test_runtime_threads_follow_omp_num_threads(monkeypatch, omp, threads):
    # Web and Celery workers set OMP_NUM_THREADS=1 (veterans_ai.threads); ONNX Runtime reads no variable itself.
    if omp is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", omp)

    embedder = MiniLMEmbedder()

    assert embedder._session.get_session_options().intra_op_num_threads == threads
    assert embedder.embed(["GI Bill"]).shape == (1, 384)
